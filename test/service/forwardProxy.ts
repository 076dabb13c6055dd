// A real forward proxy on loopback for tests and benchmarks: the npm `proxy` package (CONNECT tunnels and plain
// forwarding, an `authenticate` hook answering 407), started here and recording what passed through it. `proxy` is an
// ES module: it is loaded with a dynamic import, which the CommonJS output of tsc keeps as import() (module node16).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request the proxy received: a CONNECT (its target "host:port") or a forwarded request (its absolute URL). */
export interface ProxiedRequest {
  method: string;
  /** CONNECT: "host:port"; otherwise the absolute URL the client asked the proxy for. */
  target: string;
  /** The proxy answered 407 (the authenticate hook said no). */
  refused: boolean;
  time: number;
}

export interface ForwardProxy {
  /** http://127.0.0.1:port */
  readonly url: string;
  readonly port: number;
  /** Everything received, in order. */
  readonly received: readonly ProxiedRequest[];
  /** Client connections opened to the proxy (one per CONNECT tunnel with VS Code's agent). */
  readonly connections: number;
  clear(): void;
  /** Undefined: every request passes; otherwise the Proxy-Authorization value it requires (407 without it). */
  requireAuthorization(value: string | undefined): void;
  close(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  const { createProxy } = await import('proxy');
  const server = createProxy(createServer());
  const received: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let required: string | undefined;
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // The hook sees CONNECTs and forwarded requests alike, before the proxy acts on them: the one place to record both.
  server.authenticate = (req: IncomingMessage) => {
    const ok = required === undefined || req.headers['proxy-authorization'] === required;
    received.push({ method: req.method ?? '', target: req.url ?? '', refused: !ok, time: Date.now() });
    return ok;
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    get connections() {
      return connections;
    },
    clear() {
      received.length = 0;
      connections = 0;
    },
    requireAuthorization(value) {
      required = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}
