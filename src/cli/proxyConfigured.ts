// Whether the environment names a proxy (proxyAgents.ts reads it), apart so a run without one loads no proxy code.
const PROXY_VARIABLES = ['https_proxy', 'http_proxy', 'all_proxy'];

export function proxyConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return PROXY_VARIABLES.some((name) => !!(env[name] || env[name.toUpperCase()]));
}
