// Property tests of the model list's profile (issue 27): services generated from a grammar of wrappers and namings
// (random key words, nesting, groups, records nested one level, ids beside names). A service's style is drawn once;
// its answers then differ only in the models they list. The profile inferred from the first answer reads back every
// planted name and kind, and reads a later answer of the same service the same way, by the profile alone.
//
// Seeded: HR_PROPERTY_SEED replays a run; a failure names its seed and the path to the shrunk counterexample.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { readModelsByProfile } from '../../src/api/modelListReader';
import type { ModelInfo } from '../../src/api/types';
import { readModelList } from './readers';

const SEED = Number(process.env.HR_PROPERTY_SEED ?? 20_261_127);
const RUNS = 300;

const WORDS = ['zorb', 'quill', 'vex', 'lumen', 'tarn', 'crux', 'fable', 'nimbus', 'orbit', 'plinth', 'rune', 'sable'];
const key = fc
  .tuple(fc.constantFrom(...WORDS), fc.constantFrom('', 'List', '_set', 'Data', 's'), fc.constantFrom('camel', 'snake', 'plain'))
  .map(([w, suffix, style]) => (style === 'snake' ? `${w}_${suffix.replace(/^_/, '').toLowerCase()}`.replace(/_$/, '') : `${w}${suffix}`));
const BASE_WORDS = ['base', 'foundation', 'pretrained', 'stock', 'system'];
const CUSTOM_WORDS = ['custom', 'fine-tuned', 'finetuned', 'lora', 'user'];

/** Everything about a service but the models it lists. */
const style = fc.record({
  wrappers: fc.array(fc.record({ key, inArray: fc.boolean() }), { maxLength: 3 }),
  layout: fc.constantFrom('flat', 'groups'),
  listKey: fc.option(key, { nil: undefined }),
  item: fc.constantFrom('string', 'record', 'nested'),
  nestKey: key,
  nameKey: key,
  kindKey: key,
  says: fc.record({ base: fc.constantFrom(...BASE_WORDS), custom: fc.constantFrom(...CUSTOM_WORDS) }),
  idBeside: fc.constantFrom('none', 'number', 'string'),
  groupKeys: fc.record({
    base: fc.tuple(fc.constantFrom('base', 'foundation', 'stock'), fc.constantFrom('Models', '_models', 's')).map(([a, b]) => a + b),
    custom: fc
      .tuple(fc.constantFrom('custom', 'tuned', 'your', 'private'), fc.constantFrom('Models', '_models', 's'))
      .map(([a, b]) => a + b),
  }),
});
type Style = typeof style extends fc.Arbitrary<infer T> ? T : never;

interface Planted {
  name: string;
  kind: 'base' | 'custom';
}

function item(s: Style, m: Planted, i: number): unknown {
  if (s.item === 'string') return m.name;
  const fields: Record<string, unknown> = { [s.nameKey]: m.name };
  if (s.kindKey !== s.nameKey) fields[s.kindKey] = s.says[m.kind];
  if (s.idBeside === 'number' && !('id' in fields)) fields.id = 1000 + i;
  if (s.idBeside === 'string' && !('uid' in fields)) fields.uid = `u${i}x${(i * 7919) % 1000}`;
  return s.item === 'nested' ? { [s.nestKey]: fields, stats: { calls: i } } : fields;
}

/** One answer of the service: its models in its style. */
function answer(s: Style, models: Planted[]): unknown {
  let body: unknown;
  if (s.layout === 'groups' && s.groupKeys.base !== s.groupKeys.custom) {
    body = {
      [s.groupKeys.base]: models.filter((m) => m.kind === 'base').map((m, i) => item(s, m, i)),
      [s.groupKeys.custom]: models.filter((m) => m.kind === 'custom').map((m, i) => item(s, m, i)),
    };
  } else {
    const list = models.map((m, i) => item(s, m, i));
    body = s.listKey ? { [s.listKey]: list, total: list.length } : list;
  }
  for (const w of s.wrappers) body = w.inArray ? [{ [w.key]: body }] : { [w.key]: body, ok: true };
  return body;
}

/** Does the style say each model's kind (a plain list of names does not, unless grouped). */
const saysKind = (s: Style) =>
  (s.layout === 'groups' && s.groupKeys.base !== s.groupKeys.custom) || (s.item !== 'string' && s.kindKey !== s.nameKey);

const models = (prefix: string) =>
  fc
    .array(fc.constantFrom<'base' | 'custom'>('base', 'custom'), { minLength: 0, maxLength: 8 })
    .map((ks): Planted[] => [
      { name: `${prefix}-base-0`, kind: 'base' },
      { name: `${prefix}-tuned-1`, kind: 'custom' },
      ...ks.map((kind, i) => ({ name: `${prefix}-m${i + 2}${kind === 'base' ? 'b' : 'c'}`, kind })),
    ]);

const service = fc.record({ style, first: models('alpha'), later: models('omega') });

function matches(s: Style, read: ModelInfo[], planted: Planted[]): void {
  const got = read.map((m) => `${m.name}:${saysKind(s) ? m.kind : '-'}`).sort();
  const want = planted.map((m) => `${m.name}:${saysKind(s) ? m.kind : '-'}`).sort();
  assert.deepEqual(got, want);
}

describe('model list profile properties', () => {
  it('the profile inferred from a first answer reads back every planted name and kind, and a later answer the same way', () => {
    const details = fc.check(
      fc.property(service, ({ style: s, first, later }) => {
        const reading = readModelList(answer(s, first));
        assert.ok(reading.profile, 'no profile');
        matches(s, reading.models, first);
        const byProfile = readModelsByProfile(answer(s, later), reading.profile);
        assert.ok(byProfile, `the later answer does not fit ${JSON.stringify(reading.profile)}`);
        matches(s, byProfile, later);
        assert.equal(readModelList(answer(s, later), reading.profile).change, undefined);
      }),
      { seed: SEED, numRuns: RUNS },
    );
    if (details.failed) {
      throw new Error(
        `failed with seed ${SEED} (replay: HR_PROPERTY_SEED=${SEED}, path ${details.counterexamplePath})\n` +
          `counterexample: ${JSON.stringify(details.counterexample, null, 1)}\n${String(details.errorInstance)}`,
      );
    }
  });
});
