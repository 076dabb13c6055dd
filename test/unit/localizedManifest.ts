// package.json names its contributed text by `%key%`; VS Code shows the text package.nls.json (or a translation of it)
// gives each key. Tests that read what the user sees read it through this, as VS Code does in English.
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../..');

export function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));
}

/** A whole `%key%` string: VS Code replaces only values that are exactly one key. */
export const NLS_KEY = /^%([^%\s]+)%$/;

/** package.json with each `%key%` replaced by its English text (a missing key is kept as written). */
export function localizedManifest<T>(): T {
  const nls = readJson('package.nls.json') as Record<string, string>;
  const replace = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const key = NLS_KEY.exec(value)?.[1];
      return key !== undefined && key in nls ? nls[key] : value;
    }
    if (Array.isArray(value)) return value.map(replace);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v)]));
    return value;
  };
  return replace(readJson('package.json')) as T;
}
