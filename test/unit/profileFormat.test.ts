// The service profile's format is stated once (src/api/profileFormat.ts): package.json's JSON Schema of the setting
// `hostedReasoning.serviceProfile` is held equal to the one derived from it, so the editor's squiggles and the checker
// never disagree on what a profile may hold. The schema's descriptions are package.json's own (`%key%`, text in
// package.nls.json); everything else is compared.
import { strict as assert } from 'node:assert';
import { PROFILE_SCHEMA } from '../../src/api/profileFormat';
import { NLS_KEY, readJson } from './localizedManifest';

interface Manifest {
  contributes: { configuration: { properties: Record<string, { additionalProperties?: unknown }> } };
}

const manifest = readJson('package.json') as Manifest;
const setting = manifest.contributes.configuration.properties['hostedReasoning.serviceProfile'];
const nls = readJson('package.nls.json') as Record<string, string>;

/** The schema without its descriptions, and the descriptions it had. */
function withoutDescriptions(v: unknown, found: string[]): unknown {
  if (Array.isArray(v)) return v.map((x) => withoutDescriptions(x, found));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'markdownDescription' && typeof x === 'string') found.push(x);
    else out[k] = withoutDescriptions(x, found);
  }
  return out;
}

describe('the service profile format, stated once', () => {
  it("package.json's schema of one origin's profile is the one the format derives (descriptions aside)", () => {
    assert.ok(setting, 'package.json contributes hostedReasoning.serviceProfile');
    const descriptions: string[] = [];
    const written = withoutDescriptions(setting.additionalProperties, descriptions);
    assert.deepEqual(
      written,
      PROFILE_SCHEMA,
      `package.json's schema differs from the format's; the format's is:\n${JSON.stringify(PROFILE_SCHEMA, null, 2)}`,
    );
    assert.ok(descriptions.length > 0);
    for (const d of descriptions) {
      const key = NLS_KEY.exec(d)?.[1];
      assert.ok(key !== undefined && typeof nls[key] === 'string', `${d} is a %key% with its text in package.nls.json`);
    }
  });
});
