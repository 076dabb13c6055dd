// Strict checks for values that crossed a boundary (a webview's message, the local runtime child's, a record read back
// from globalState, a service profile from storage or the setting): each check says why a value is not exactly what is
// expected, or undefined when it is. Strict, not guessed: unlike src/api's inference of an answer's structure, nothing
// unknown passes. No vscode and no Node: the webview bundles use it too.
// A check also carries, for the formats stated with it once: the type of what passes (`Infer<typeof check>`, so the
// TypeScript type is derived, never written beside it) and its JSON Schema (`check.schema`, as far as JSON Schema can
// say it: package.json's schema of a setting is held equal to it by a unit test).

/** A JSON Schema fragment. */
export type JsonSchema = { readonly [key: string]: unknown };

export interface Check<T = unknown> {
  (value: unknown): string | undefined;
  /** What passes, in JSON Schema; absent where the check was written by hand. */
  readonly schema?: JsonSchema;
  /** Never set: it carries the type of what passes, for Infer. */
  readonly passes?: T;
}

/** The type of what a check lets pass. */
export type Infer<C> = C extends Check<infer T> ? T : never;

type Fields = Record<string, Check>;
type Plain<T> = { -readonly [K in keyof T]: T[K] } & {};

function withSchema<T>(check: (value: unknown) => string | undefined, schema: JsonSchema): Check<T> {
  return Object.assign(check, { schema });
}

export function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Exactly these keys: a missing required one or any unknown one is refused (it would be a protocol drift). */
export function exactFields<R extends Fields, O extends Fields = Record<never, Check>>(
  required: R & Fields,
  optionalFields?: O & Fields,
): Check<Plain<{ [K in keyof R]: Infer<R[K]> } & { [K in keyof O]?: Infer<O[K]> }>> {
  const optional: Fields = optionalFields ?? {};
  const check = (value: unknown): string | undefined => {
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
  const keys = Object.keys(required);
  const properties = Object.fromEntries(Object.entries({ ...required, ...optional }).map(([k, c]) => [k, c.schema ?? {}]));
  return withSchema(check, { type: 'object', additionalProperties: false, ...(keys.length > 0 ? { required: keys } : {}), properties });
}

export function str(min: number, max: number, pattern?: RegExp): Check<string> {
  const check = (v: unknown): string | undefined => {
    if (typeof v !== 'string') return 'not a string';
    if (v.length < min) return `shorter than ${min}`;
    if (v.length > max) return `longer than ${max}`;
    if (pattern && !pattern.test(v)) return 'malformed';
    return undefined;
  };
  return withSchema(check, {
    type: 'string',
    ...(min > 0 ? { minLength: min } : {}),
    maxLength: max,
    ...(pattern ? { pattern: pattern.source } : {}),
  });
}

export function num(min: number, max: number, integer = false): Check<number> {
  const check = (v: unknown): string | undefined => {
    if (typeof v !== 'number' || !Number.isFinite(v)) return 'not a finite number';
    if (integer && !Number.isInteger(v)) return 'not an integer';
    if (v < min || v > max) return `outside ${min}..${max}`;
    return undefined;
  };
  return withSchema(check, { type: integer ? 'integer' : 'number', minimum: min, maximum: max });
}

export const bool: Check<boolean> = withSchema((v) => (typeof v === 'boolean' ? undefined : 'not a boolean'), { type: 'boolean' });

export const literal = <const V extends readonly string[]>(...values: V): Check<V[number]> =>
  withSchema((v) => (typeof v === 'string' && values.includes(v) ? undefined : 'not an allowed value'), { enum: values });

export const arrayOf = <T>(max: number, item: Check<T>, min = 0): Check<T[]> =>
  withSchema(
    (v) => {
      if (!Array.isArray(v)) return 'not an array';
      if (v.length < min) return `fewer than ${min} items`;
      if (v.length > max) return `more than ${max} items`;
      for (let i = 0; i < v.length; i++) {
        const why = item(v[i]);
        if (why) return `[${i}] ${why}`;
      }
      return undefined;
    },
    { type: 'array', ...(min > 0 ? { minItems: min } : {}), maxItems: max, items: item.schema ?? {} },
  );

/** An object of any keys (at most `max`), each value passing `item`: a map of words a person writes. */
export const recordOf = <T>(max: number, item: Check<T>): Check<Record<string, T>> =>
  withSchema(
    (v) => {
      if (!isRecord(v)) return 'not an object';
      const entries = Object.entries(v);
      if (entries.length > max) return `more than ${max} fields`;
      for (const [key, value] of entries) {
        const why = item(value);
        if (why) return `[${JSON.stringify(key)}] ${why}`;
      }
      return undefined;
    },
    { type: 'object', maxProperties: max, additionalProperties: item.schema ?? {} },
  );

/** `check`, then a rule of what passed it (one JSON Schema cannot always say: `schema` adds what it can). */
export const refine = <T>(check: Check<T>, rule: (value: T) => string | undefined, schema: JsonSchema = {}): Check<T> =>
  withSchema((v) => check(v) ?? rule(v as T), { ...check.schema, ...schema });

/** `check` with its refusal said in `words`. */
export const says = <T>(check: Check<T>, words: string): Check<T> =>
  withSchema((v) => (check(v) === undefined ? undefined : words), check.schema ?? {});

/**
 * A refusal of the checks above (`lists: [0] names: longer than 300`) as one sentence about `subject`:
 * `modelList.lists[0].names is longer than 300`. The words of a check that begin with a verb (`has no []…`) are kept.
 */
export function sentence(subject: string, why: string): string {
  let at = subject;
  let rest = why;
  for (;;) {
    const m = /^(?:([A-Za-z_$][\w$]*): |(\[(?:\d+|"(?:[^"\\]|\\.)*")\]) )/.exec(rest);
    if (!m) break;
    at += m[1] !== undefined ? `.${m[1]}` : m[2];
    rest = rest.slice(m[0].length);
  }
  const words = /^(is|has|says|names) /.test(rest)
    ? rest
    : /^unknown field /.test(rest)
      ? `has an ${rest}`
      : /^missing field /.test(rest)
        ? `has no ${rest.slice('missing '.length)}`
        : /^(more|fewer) than /.test(rest)
          ? `has ${rest}`
          : `is ${rest}`;
  return `${at} ${words}`;
}

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
