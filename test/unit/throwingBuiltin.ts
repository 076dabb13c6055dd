// Makes the builtins every reader of answers calls (Object.entries, values, keys) throw a RangeError while `run` runs,
// as a spread over more than about 125,000 elements did: an error a reader meets that no check of its own foresaw.

const NAMES = ['entries', 'values', 'keys'] as const;

export function whileObjectWalksThrow<T>(run: () => T): T {
  const object = Object as unknown as Record<string, unknown>;
  const saved = NAMES.map((n) => [n, object[n]] as const);
  const restore = () => {
    for (const [n, f] of saved) object[n] = f;
  };
  for (const n of NAMES) {
    object[n] = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
  }
  let restoreNow = true;
  try {
    const result = run();
    if (result instanceof Promise) {
      restoreNow = false;
      return result.finally(restore) as T;
    }
    return result;
  } finally {
    if (restoreNow) restore();
  }
}
