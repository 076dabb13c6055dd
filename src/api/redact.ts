// Secrets that must never reach a log line, an error message or a notification: the API key and the
// query part of signed URLs (a signed URL is a credential of its own).

const secrets = new Set<string>();

/**
 * Registers a value (the API key) to be masked wherever `redact` runs, in every form a server may echo it: as is,
 * percent-encoded (a query or form body), base64 and base64url (a header or token it was packed into). Short values
 * are ignored: masking "a" would wreck text.
 */
export function registerSecret(value: string | undefined): void {
  if (!value || value.length < 4) return;
  const bytes = Buffer.from(value, 'utf8');
  for (const form of [
    value,
    encodeURIComponent(value),
    bytes.toString('base64'),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
  ]) {
    if (form.length >= 4) secrets.add(form);
  }
}

const URL_WITH_QUERY = /\b(https?:\/\/[^\s"'<>?#]+)\?[^\s"'<>#]*/gi;
const URL_CREDENTIALS = /\b(https?:\/\/)[^\s"'<>/@]+@/gi;

/**
 * Masks the registered secrets (in each of their forms), credentials in URLs and the query string of every URL in
 * `text` (a signed URL's query is a credential), and nothing else: a message that merely names the header
 * ("header.x-api-key: invalid key") reads as the server wrote it.
 */
export function redact(text: string): string {
  let out = text;
  // Longest first: a short form inside a longer one (unpadded base64) must not leave the longer one's rest behind.
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('[REDACTED]');
  out = out.replace(URL_CREDENTIALS, '$1[REDACTED]@');
  out = out.replace(URL_WITH_QUERY, '$1?[REDACTED]');
  return out;
}

/** The longest URL a message names (one without an origin can be any length). */
const DESCRIBED_URL_CHARS = 200;

/** A URL shown without its query and fragment: enough to tell which host and file, not enough to fetch it. */
export function describeUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '[unparseable URL]';
  }
  const query = u.search ? '?[REDACTED]' : '';
  if (u.origin !== 'null') return `${u.origin}${u.pathname}${query}`;
  // No origin (file:, data:, javascript:, …): "null" would name nothing. A data: URL is its own content: never copied.
  if (u.protocol === 'data:') return 'a data: URL';
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  const text = u.href;
  const max = DESCRIBED_URL_CHARS - query.length;
  return `${text.length > max ? `${text.slice(0, max - 1)}…` : text}${query}`;
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
