// Secrets that must never reach a log line, an error message or a notification: the API key and the
// query part of signed URLs (a signed URL is a credential of its own).

// One registry per process, not per bundle copy of this file (the extension and dist/api.js each carry one).
const REGISTRY = Symbol.for('hostedReasoning.secrets');
const globalStore = globalThis as unknown as Record<symbol, Set<string> | undefined>;
const secrets = (globalStore[REGISTRY] ??= new Set<string>());

/** Registers a value (the API key) to be masked wherever `redact` runs. Short values are ignored: masking "a" would wreck text. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= 4) secrets.add(value);
}

const URL_WITH_QUERY = /\b(https?:\/\/[^\s"'<>?#]+)\?[^\s"'<>#]*/gi;
const URL_CREDENTIALS = /\b(https?:\/\/)[^\s"'<>/@]+@/gi;
const KEY_HEADER = /(x-api-key["']?\s*[:=]\s*["']?)[^\s"',}]+/gi;

/** Masks registered secrets, `X-API-Key: ...` pairs, credentials in URLs and the query string of every URL in `text`. */
export function redact(text: string): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('[REDACTED]');
  out = out.replace(URL_CREDENTIALS, '$1[REDACTED]@');
  out = out.replace(KEY_HEADER, '$1[REDACTED]');
  out = out.replace(URL_WITH_QUERY, '$1?[REDACTED]');
  return out;
}

/** A URL shown without its query and fragment: enough to tell which host and file, not enough to fetch it. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}${u.search ? '?[REDACTED]' : ''}`;
  } catch {
    return '[unparseable URL]';
  }
}

/** A short, redacted excerpt of a body for the log. */
export function excerpt(body: unknown, max = 500): string {
  let text: string;
  if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) text = Buffer.from(body).toString('utf8');
  else {
    try {
      text = JSON.stringify(body) ?? String(body);
    } catch {
      text = String(body);
    }
  }
  text = redact(text);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
