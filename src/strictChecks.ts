// Strict checks for values that crossed a boundary (a webview's message, the local runtime child's, a record read back
// from globalState): each check says why a value is not exactly what is expected, or undefined when it is. Strict, not
// guessed: unlike src/api's inference of an answer's structure, nothing unknown passes. No vscode and no Node: the
// webview bundles use it too.

export type Check = (value: unknown) => string | undefined;

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Exactly these keys: a missing required one or any unknown one is refused (it would be a protocol drift). */
export function exactFields(required: Record<string, Check>, optional: Record<string, Check> = {}): Check {
  return (value) => {
    if (!isRecord(value)) return 'not an object';
    // Own keys only: `in` would also see Object.prototype, so "__proto__" or "toString" would pass as known.
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(required, key) && !Object.hasOwn(optional, key)) return `unknown field "${key}"`;
    }
    for (const [key, check] of Object.entries(required)) {
      if (!Object.hasOwn(value, key)) return `missing field "${key}"`;
      const why = check(value[key]);
      if (why) return `${key}: ${why}`;
    }
    for (const [key, check] of Object.entries(optional)) {
      if (value[key] === undefined) continue;
      const why = check(value[key]);
      if (why) return `${key}: ${why}`;
    }
    return undefined;
  };
}

export function str(min: number, max: number, pattern?: RegExp): Check {
  return (v) => {
    if (typeof v !== 'string') return 'not a string';
    if (v.length < min) return `shorter than ${min}`;
    if (v.length > max) return `longer than ${max}`;
    if (pattern && !pattern.test(v)) return 'malformed';
    return undefined;
  };
}

export function num(min: number, max: number, integer = false): Check {
  return (v) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return 'not a finite number';
    if (integer && !Number.isInteger(v)) return 'not an integer';
    if (v < min || v > max) return `outside ${min}..${max}`;
    return undefined;
  };
}

export const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'not a boolean');

export const literal =
  (...values: readonly string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v) ? undefined : 'not an allowed value';

export const arrayOf =
  (max: number, item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return 'not an array';
    if (v.length > max) return `more than ${max} items`;
    for (let i = 0; i < v.length; i++) {
      const why = item(v[i]);
      if (why) return `[${i}] ${why}`;
    }
    return undefined;
  };

/** Reasons, each once with its count: `2 × a record without its times; a record of no known kind`. */
export function countedReasons(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const why of reasons) counts.set(why, (counts.get(why) ?? 0) + 1);
  return [...counts].map(([why, n]) => (n > 1 ? `${n} × ${why}` : why)).join('; ');
}

/** Why `x` is not one of the messages `checks` knows by their `type` (for the log), or undefined when it is one. */
export function messageProblem(checks: Record<string, Check>, x: unknown): string | undefined {
  if (!isRecord(x)) return 'not an object';
  const t = x.type;
  if (typeof t !== 'string' || !Object.hasOwn(checks, t)) return 'unknown message type';
  const why = checks[t]!(x);
  return why ? `${t}: ${why}` : undefined;
}
