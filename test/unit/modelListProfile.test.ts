// The model list's profile (issue 27): inferred once from an answer, it reads that answer and the later ones by paths
// and value maps; an answer it no longer fits is inferred again with the change said; a chosen way and the setting's
// profile are read as given.
import { strict as assert } from 'node:assert';
import { ContractError } from '../../src/api/errors';
import { modelListChoices } from '../../src/api/modelListInference';
import { readModelsByProfile } from '../../src/api/modelListReader';
import { describeModelListProfile, partLines } from '../../src/api/profileWords';
import { formatPath, parsePath } from '../../src/api/profilePath';
import { checkServiceProfile, type ModelListProfile } from '../../src/api/profileFormat';
import { shapeModelList, type ModelRecord } from '../service/keys';
import { readModelList } from './readers';

const RECORDS: ModelRecord[] = [
  { model_name: 'kappa-base', type: 'base' },
  { model_name: 'lambda-base', type: 'base' },
  { model_name: 'kappa-tuned-1', type: 'custom', base_model: 'kappa-base', created_at: '2026-11-20T10:00:00Z' },
];
const SECOND: ModelRecord[] = [
  ...RECORDS,
  { model_name: 'mu-base', type: 'base' },
  { model_name: 'lambda-tuned-2', type: 'custom', base_model: 'lambda-base' },
];

// Sorted: a list grouped by kind lists one group, then the other.
const kinds = (models: { name: string; kind: string; baseModel?: string }[]) =>
  models.map((m) => `${m.name}:${m.kind}${m.baseModel ? `<${m.baseModel}` : ''}`).sort();
const expected = (records: ModelRecord[]) =>
  records.map((r) => `${r.model_name}:${r.type}${r.base_model ? `<${r.base_model}` : ''}`).sort();

/** Shapes: the emulator's default, and three shaped unlike it. `kinds`: does the shape say kinds and parents. */
const SHAPES: { name: string; body: (r: ModelRecord[]) => unknown; kinds: boolean }[] = [
  { name: "the emulator's default ({models: [records]})", body: (r) => shapeModelList(r, 'wrapped-models'), kinds: true },
  {
    name: 'records nested one level ({results:{items:[{model:{id, tier}}]}})',
    body: (r) => shapeModelList(r, 'nested-results'),
    kinds: true,
  },
  {
    name: 'grouped by kind ({foundation_models: [names], yourModels: [records]})',
    body: (r) => shapeModelList(r, 'grouped-by-kind'),
    kinds: true,
  },
  { name: 'a plain list of strings', body: (r) => shapeModelList(r, 'strings'), kinds: false },
];

describe('model list profile: inferred once, read by it', () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: reads every planted name and kind, and a second answer the same way by the profile`, () => {
      const first = readModelList(shape.body(RECORDS));
      assert.ok(first.profile, 'no profile inferred');
      assert.ok(first.change, 'a first inference says how the list is read');
      const want = (r: ModelRecord[]) => (shape.kinds ? expected(r) : r.map((x) => `${x.model_name}:unknown`).sort());
      assert.deepEqual(kinds(first.models), want(RECORDS));
      // A later answer of the same service: read by the profile alone (the reader, no inference), the same way.
      const byProfile = readModelsByProfile(shape.body(SECOND), first.profile);
      assert.ok(byProfile, 'the second answer does not fit the profile');
      assert.deepEqual(kinds(byProfile), want(SECOND));
      const second = readModelList(shape.body(SECOND), first.profile);
      assert.equal(second.change, undefined, 'the profile was inferred again');
      assert.equal(second.profile, first.profile);
    });
  }

  it('says where the names are in words: path, names, kind source and its value map', () => {
    const { profile, models } = readModelList(shapeModelList(RECORDS, 'nested-results'));
    assert.ok(profile);
    const lines = partLines(
      'modelList',
      profile,
      models.slice(0, 2).map((m) => m.name),
    ).join('\n');
    assert.match(
      lines,
      /Model names: results\.items\[\]\.model\.id — kappa-base, lambda-base; kind from model\.tier: foundation → base, fine-tuned → custom; made from model\.parent/,
    );
    assert.match(lines, /inferred from the first answer/);
  });

  it('an answer the profile no longer fits is inferred again, and the change is said', () => {
    const { profile } = readModelList(shapeModelList(RECORDS, 'wrapped-models'));
    assert.ok(profile);
    const moved = readModelList(shapeModelList(SECOND, 'nested-results'), profile);
    assert.deepEqual(kinds(moved.models), expected(SECOND));
    assert.ok(moved.profile && moved.profile !== profile);
    assert.match(moved.change ?? '', /no longer fits .*models\[\]\.model_name.*now: results\.items\[\]\.model\.id/);
  });

  it('a kind word the profile has not seen makes the answer not fit: inferred again, the new word mapped', () => {
    const { profile } = readModelList(shapeModelList(RECORDS, 'nested-results'));
    assert.ok(profile);
    const body = shapeModelList(RECORDS, 'nested-results') as { results: { items: { model: { tier: string } }[] } };
    body.results.items[0]!.model.tier = 'pretrained';
    assert.equal(readModelsByProfile(body, profile), undefined);
    const again = readModelList(body, profile);
    assert.equal(again.models[0]?.kind, 'base');
    assert.match(again.change ?? '', /pretrained → base/);
  });

  it('two lists that fit equally well are refused; each is a choice with its path and names, and a choice is read as kept', () => {
    const body = shapeModelList(RECORDS, 'two-lists');
    assert.throws(
      () => readModelList(body),
      (e: unknown) => e instanceof ContractError && /two lists fit equally well/.test(e.message),
    );
    const choices = modelListChoices(body);
    const paths = choices.map((c) => c.profile.lists[0]!.names);
    assert.ok(paths.includes('available.items[].ref') && paths.includes('featured.items[].ref'), paths.join(', '));
    const chosen = choices.find((c) => c.profile.lists[0]!.names === 'featured.items[].ref')!;
    assert.deepEqual(chosen.samples, ['kappa-base', 'lambda-base', 'kappa-tuned-1']);
    assert.equal(chosen.profile.by, 'chosen');
    // Kept, then used for the next answer: no inference (which would refuse it again).
    const read = readModelList(shapeModelList(SECOND, 'two-lists'), chosen.profile);
    assert.deepEqual(kinds(read.models), SECOND.map((r) => `${r.model_name}:${r.type}`).sort());
    assert.equal(read.change, undefined);
  });

  it('offers the other name fields of a list of records as choices', () => {
    const body = {
      data: [
        { id: 'm-1', alias: 'first-model' },
        { id: 'm-2', alias: 'second-model' },
      ],
    };
    const fields = modelListChoices(body).map((c) => c.profile.lists[0]!.names);
    assert.deepEqual(fields.slice(0, 2).sort(), ['data[].alias', 'data[].id']);
  });

  it("a profile written by hand (the setting's) is checked, and read as written, over what inference would pick", () => {
    const body = {
      data: [
        { id: 'm-1', alias: 'first-model', kind: 'base' },
        { id: 'm-2', alias: 'second-model', kind: 'custom' },
      ],
    };
    assert.deepEqual(
      readModelList(body).models.map((m) => m.name),
      ['m-1', 'm-2'],
    );
    const written = checkServiceProfile(
      { modelList: { lists: [{ names: 'data[].alias', kindFrom: [{ from: 'kind', map: { base: 'base', custom: 'custom' } }] }] } },
      'setting',
    );
    assert.ok('value' in written, JSON.stringify(written));
    const setting = written.value.modelList as ModelListProfile;
    assert.equal(setting.by, 'setting');
    const read = readModelList(body, setting);
    assert.deepEqual(kinds(read.models), ['first-model:base', 'second-model:custom']);
    assert.equal(read.change, undefined);
    assert.match(describeModelListProfile(setting), /data\[\]\.alias; kind from kind: base → base, custom → custom/);
  });

  it('refuses a hand-written profile it cannot follow, saying why', () => {
    const problem = (x: unknown) => {
      const c = checkServiceProfile(x);
      return 'problem' in c ? c.problem : 'accepted';
    };
    assert.match(problem({ modelList: { lists: [{ names: 'data.id' }] } }), /no \[\]/);
    assert.match(problem({ modelList: { lists: [{ names: 'data[].id', kind: 'other' }] } }), /kind/);
    assert.match(problem({ modelList: { lists: [{ names: 'data[].id', kindFrom: [{ from: 't', map: { x: 'maybe' } }] }] } }), /map/);
    assert.match(problem({ modelList: { lists: [] } }), /lists/);
    assert.match(problem({ jobs: {} }), /unknown part/);
  });

  it('paths round-trip, keys that are not plain words included', () => {
    for (const text of ['results.items[].model.id', '[]', '[].name', 'a[0].b[]', '["model.name"][]["a b"]', 'x["[]"][]']) {
      const parsed = parsePath(text);
      assert.ok(parsed, text);
      assert.equal(formatPath(parsed), text);
    }
    for (const bad of ['a..b', 'a[', '[x]', 'a b', '.a']) assert.equal(parsePath(bad), undefined, bad);
  });

  it('a hand-written path reaches only the answer own fields', () => {
    const profile = checkServiceProfile({ modelList: { lists: [{ names: 'constructor[]' }] } });
    assert.ok('value' in profile && profile.value.modelList);
    assert.equal(readModelsByProfile({ models: ['a-1'] }, profile.value.modelList), undefined);
  });
});
