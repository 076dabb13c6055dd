// Which URLs may carry the key or a download: https, or plain http only to this machine. Kept apart from
// http.ts so the extension can check a URL as the user types without loading axios.

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Why `url` cannot be the service's base URL, or undefined when it can. */
export function baseUrlProblem(url: URL): string | undefined {
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    return url.protocol === 'http:' ? 'Use https: plain http is accepted only for localhost.' : 'The URL must start with https://';
  }
  if (url.username || url.password) return 'The service URL must not carry a user name or password; the API key is set separately.';
  return undefined;
}

/**
 * The base URL as the client uses it (no query or fragment, a trailing slash), or the reason it cannot be one.
 * Session derives job scopes from it without loading the client.
 */
export function normaliseBaseUrl(raw: string): { url: URL } | { problem: string } {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { problem: `The service URL "${raw}" is not a valid URL.` };
  }
  const problem = baseUrlProblem(u);
  if (problem) return { problem };
  u.search = '';
  u.hash = '';
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return { url: u };
}

/** The origin (`https://host:port`) a base URL's key is bound to, or undefined for an unusable URL. */
export function originOf(baseUrl: string): string | undefined {
  const normalised = normaliseBaseUrl(baseUrl);
  return 'url' in normalised ? normalised.url.origin : undefined;
}
