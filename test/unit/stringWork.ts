// Counts the characters string methods are asked to examine, for tests that show work grows linearly without timing
// anything or adding hooks to the code under test. A method that scans or copies a string counts that string's length
// (an upper bound: indexOf may stop early); one that reads a character counts 1. `+` is not counted: V8 joins long
// strings lazily, and a method called on the result counts the flattening then.

type Method = (this: unknown, ...args: unknown[]) => unknown;

const SCANS = ['indexOf', 'lastIndexOf', 'includes', 'search', 'match', 'matchAll', 'replace', 'replaceAll', 'split'] as const;
const WHOLE = ['trim', 'trimStart', 'trimEnd', 'toLowerCase', 'toUpperCase', 'normalize', 'padStart', 'padEnd', 'repeat'] as const;
const COPIES = ['slice', 'substring', 'substr', 'concat', 'at'] as const;
const CHARACTER = ['charAt', 'charCodeAt', 'codePointAt'] as const;
const PREFIX = ['startsWith', 'endsWith'] as const;

export class StringWork {
  count = 0;
  private saved: [object, string, Method][] = [];

  start(): void {
    const proto = String.prototype as unknown as Record<string, Method>;
    const len = (v: unknown) => (typeof v === 'string' ? v.length : v instanceof String ? v.length : 0);
    const patch = (target: Record<string, Method>, name: string, cost: (self: unknown, args: unknown[], result: unknown) => number) => {
      const original = target[name]!;
      this.saved.push([target, name, original]);
      const counter = this; // eslint-disable-line @typescript-eslint/no-this-alias
      target[name] = function (this: unknown, ...args: unknown[]) {
        const result = Reflect.apply(original, this, args);
        counter.count += cost(this, args, result);
        return result;
      };
    };
    for (const m of [...SCANS, ...WHOLE]) patch(proto, m, (self) => len(self));
    for (const m of COPIES) patch(proto, m, (_self, _args, result) => len(result));
    for (const m of CHARACTER) patch(proto, m, () => 1);
    for (const m of PREFIX) patch(proto, m, (_self, args) => len(args[0]));
    const regexp = RegExp.prototype as unknown as Record<string, Method>;
    // A global or sticky expression starts at its lastIndex, read before the call moves it.
    const from = (re: RegExp) => (re.global || re.sticky ? re.lastIndex : 0);
    for (const m of ['test', 'exec']) {
      const original = regexp[m]!;
      this.saved.push([regexp, m, original]);
      const counter = this; // eslint-disable-line @typescript-eslint/no-this-alias
      regexp[m] = function (this: unknown, ...args: unknown[]) {
        counter.count += Math.max(0, len(args[0]) - from(this as RegExp));
        return Reflect.apply(original, this, args);
      };
    }
  }

  stop(): void {
    for (const [target, name, original] of this.saved.reverse()) (target as Record<string, Method>)[name] = original;
    this.saved = [];
  }
}
