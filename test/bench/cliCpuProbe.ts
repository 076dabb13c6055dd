// Preloaded (node -r) into both processes of figure 14: the CPU time (user + system) the process had used when it
// opened its first connection, written to stderr as it exits. CPU time, unlike wall time, is the process's own work:
// on a shared machine at a load of 16 the wall time of a cold start is mostly waiting for a core.
import * as net from 'node:net';

let firstConnectCpuMs: number | undefined;
// Typed as a function property (not a method), so taking it off the prototype to call it later is what it says.
const socket = net.Socket.prototype as unknown as { connect: (this: net.Socket, ...args: unknown[]) => net.Socket };
const connect = socket.connect;
socket.connect = function (this: net.Socket, ...args: unknown[]) {
  if (firstConnectCpuMs === undefined) {
    const used = process.cpuUsage();
    firstConnectCpuMs = (used.user + used.system) / 1000;
  }
  return connect.apply(this, args);
};

process.on('exit', () => {
  process.stderr.write(`\ncpu-to-first-connect-ms ${firstConnectCpuMs ?? 'none'}\n`);
});
