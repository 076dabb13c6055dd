// Connections kept open between requests (HTTP keep-alive), for the calls the client makes again and again (the
// poller's status calls, lists, downloads). One pair of agents per process, shared by every client: a connection to
// an origin serves whichever client asks next.
//
// Why not the runtime's default agent: Node's global agent keeps connections alive too, but closes an idle one after
// 5 s, which is the default poll interval, so polling opened a connection (a TCP and TLS handshake) nearly every
// time. These keep an idle connection for up to IDLE_MS; Node shortens that to what the server announces
// (`Keep-Alive: timeout=N`, less a second), so a connection the server is about to close is not reused. Idle sockets
// are unref'd by Node: they never keep a process alive.
//
// Inside VS Code the caller decides whether these agents may be given to a request at all (HttpConfig
// `reuseConnections`): VS Code's proxy support replaces a request's agent with its own for proxied and direct hosts
// alike under `http.proxySupport: override` (the default), and under `on` an agent of the extension's opts the request
// OUT of the proxy, so there the agents must not be given.
import * as http from 'http';
import * as https from 'https';

/** Longest an idle connection is kept (servers commonly keep them 60 s; Node honours a shorter announced timeout). */
export const IDLE_MS = 30_000;

let agents: { http: http.Agent; https: https.Agent } | undefined;

export function keepAliveAgents(): { http: http.Agent; https: https.Agent } {
  // `timeout` is the idle timeout of a free socket here: the agent destroys a kept socket that sees no traffic for
  // that long; a socket serving a request (a silent reasoning stream) is left to the caller's own watchdogs.
  const options = { keepAlive: true, timeout: IDLE_MS, scheduling: 'lifo' as const };
  return (agents ??= { http: new http.Agent(options), https: new https.Agent(options) });
}
