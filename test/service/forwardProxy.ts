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

/**
 * `localAddress`: the address the proxy's own connections to targets come from (e.g. 127.0.0.3), so a server on
 * loopback can tell a request that came through the proxy from one that came direct.
 */
export async function startForwardProxy(options: { localAddress?: string; hosts?: Record<string, string> } = {}): Promise<ForwardProxy> {
  const { createProxy } = await import('proxy');
  const server = createProxy(createServer());
  if (options.localAddress) server.localAddress = options.localAddress;
  // `hosts`: names only this proxy resolves (name -> address), like a company's internal DNS behind its proxy. The
  // target is rewritten before the proxy's own handlers run; the record keeps the name the client asked for.
  const asked = new WeakMap<IncomingMessage, string>();
  const resolveNames = (req: IncomingMessage) => {
    const target = req.url ?? '';
    asked.set(req, target);
    for (const [name, address] of Object.entries(options.hosts ?? {})) {
      if (req.method === 'CONNECT' && target.startsWith(`${name}:`)) req.url = address + target.slice(name.length);
      else if (target.startsWith(`http://${name}:`) || target.startsWith(`http://${name}/`)) req.url = target.replace(name, address);
    }
  };
  server.prependListener('connect', resolveNames);
  server.prependListener('request', resolveNames);
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
    received.push({ method: req.method ?? '', target: asked.get(req) ?? req.url ?? '', refused: !ok, time: Date.now() });
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
