// Where a redirect of the service URL leads, in words a person can act on. The keyed client never follows a redirect
// (the key would go along to wherever it leads, http.ts): the person sets the address it leads to instead. When the
// redirect keeps the call's own path (`http://example.com/cr/x` → `https://www.example.com/cr/x`) the base URL it
// implies is offered; anything else (a sign-in page) is named, and the person decides.
import { redact } from './redact';
import { baseUrlProblem } from './urlPolicy';

export interface RedirectAdvice {
  /** Where it leads, without query, fragment or credentials (a sign-in page's query may carry a token). */
  to: string;
  /** The base URL under which the same call is where the redirect leads, when there is one the client may use. */
  baseUrl?: string;
}

/** Longest address shown: a Location is the service's text. */
const MAX_SHOWN = 300;

/** The redirect of `requestUrl` (a call under `base`) to `location`, or undefined when `location` is no web address. */
export function redirectAdvice(base: URL, requestUrl: string, location: string): RedirectAdvice | undefined {
  let target: URL;
  try {
    target = new URL(location, requestUrl);
  } catch {
    return undefined;
  }
  if (target.protocol !== 'https:' && target.protocol !== 'http:') return undefined;
  target.username = '';
  target.password = '';
  target.search = '';
  target.hash = '';
  const to = shown(target.href);
  const from = new URL(requestUrl).pathname;
  if (!from.startsWith(base.pathname)) return { to };
  const call = from.slice(base.pathname.length);
  if (call === '' || !target.pathname.endsWith(`/${call}`)) return { to };
  const implied = new URL(target.pathname.slice(0, target.pathname.length - call.length), target.origin);
  if (implied.href === base.href || baseUrlProblem(implied)) return { to };
  return { to, baseUrl: shown(implied.href.replace(/\/$/, '')) };
}

function shown(url: string): string {
  const text = redact(url);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}
