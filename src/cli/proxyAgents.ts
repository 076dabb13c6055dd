// The proxy outside VS Code: HTTPS_PROXY / HTTP_PROXY / NO_PROXY (and their lower-case forms), as curl and most tools
// read them. The extension's requests go through VS Code's proxy support, which patches node:http(s); the client never
// gives a request an agent of its own (CONTRIBUTING, "Rules the code keeps"), so every request, the keyed ones (axios,
// `proxy: false`) and the bare signed-URL ones (storageRequest.ts) alike, uses node's global agents. Here those global
// agents are replaced by one that asks proxy-from-env for each request's URL: a tunnel (CONNECT) for https, the
// absolute-URL form for http, or a direct connection where NO_PROXY says so. A proxy's 407 reaches the client as the
// same `proxy` error kind it is in VS Code.
// The modules themselves (default imports), not a namespace copy: the global agents are replaced on them.
import http from 'node:http';
import https from 'node:https';
import { Agent, type AgentConnectOpts } from 'agent-base';
import { HttpProxyAgent } from 'http-proxy-agent';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';
import { proxyConfigured } from './proxyConfigured';

class EnvironmentProxyAgent extends Agent {
  private readonly direct = { http: http.globalAgent, https: https.globalAgent };
  private readonly tunnels = new Map<string, Agent>();

  connect(req: http.ClientRequest, options: AgentConnectOpts): http.Agent {
    const secure = options.secureEndpoint;
    const host = req.host || options.host || 'localhost';
    const url = `${secure ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${options.port}${req.path}`;
    const proxy = getProxyForUrl(url);
    if (!proxy) return secure ? this.direct.https : this.direct.http;
    const key = `${secure ? 's' : 'p'} ${proxy}`;
    let agent = this.tunnels.get(key);
    if (!agent) {
      agent = secure ? new HttpsProxyAgent(proxy) : new HttpProxyAgent(proxy);
      this.tunnels.set(key, agent);
    }
    return agent;
  }
}

/** Sends every request of this process through the proxy the environment names, when it names one. */
export function useEnvironmentProxy(env: NodeJS.ProcessEnv = process.env): boolean {
  if (!proxyConfigured(env)) return false;
  const agent = new EnvironmentProxyAgent();
  // Writable since Node 19 (http.globalAgent is a setter); @types/node says read-only.
  Object.assign(http, { globalAgent: agent });
  Object.assign(https, { globalAgent: agent });
  return true;
}
