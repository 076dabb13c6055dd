// The known local models are read back from globalState through one check: what is not exactly a record of ours is
// dropped (a path from a corrupt entry would be opened by the runtime), ids are stable digests that never carry the
// path, and a panel lists only its own service's downloads beside the chosen files.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import {
  describeDropped,
  isLocalModelId,
  localModelId,
  MAX_LOCAL_MODELS,
  readStoredLocalModels,
  visibleLocalModels,
} from '../../src/local/storedLocalModels';

const ORIGIN = 'https://a.example';
const dir = path.resolve('/models');
const download = (extra: Record<string, unknown> = {}) => ({
  source: 'download',
  origin: ORIGIN,
  modelName: 'ft:mine',
  path: path.join(dir, 'mine.gguf'),
  bytes: 1234,
  addedAt: 1_000,
  ...extra,
});
const file = (name: string, extra: Record<string, unknown> = {}) => ({
  source: 'file',
  path: path.join(dir, name),
  bytes: 10,
  addedAt: 2_000,
  ...extra,
});

describe('stored local models', () => {
  it('keeps valid downloads and files, with a stable id and the name shown', () => {
    const read = readStoredLocalModels([download(), file('tiny.gguf')]);
    assert.deepEqual(read.dropped, []);
    assert.deepEqual(
      read.models.map((m) => [m.source, m.label]),
      [
        ['download', 'ft:mine'],
        ['file', 'tiny.gguf'],
      ],
    );
    const again = readStoredLocalModels([file('tiny.gguf'), download({ path: path.join(dir, 'moved.gguf'), addedAt: 5 })]);
    assert.equal(again.models[1]!.id, read.models[0]!.id, 'a download keeps its id when downloaded again elsewhere');
    assert.equal(again.models[0]!.id, read.models[1]!.id);
  });

  it('gives ids that match the pattern the host accepts and never hold the path', () => {
    for (const m of readStoredLocalModels([download(), file('secret-name.gguf')]).models) {
      assert.ok(isLocalModelId(m.id), m.id);
      assert.ok(!m.id.includes('secret') && !m.id.includes(dir), m.id);
    }
    assert.notEqual(
      localModelId({ source: 'download', origin: ORIGIN, modelName: 'x', path: '/a' }),
      localModelId({ source: 'download', origin: 'https://b.example', modelName: 'x', path: '/a' }),
      'two services models of one name are two models',
    );
    assert.ok(!isLocalModelId('local:/etc/passwd'));
    assert.ok(!isLocalModelId('oss-reasoner-8b'));
  });

  it('drops what is not exactly a record of ours, and says why without values', () => {
    const read = readStoredLocalModels([
      null,
      'x',
      download({ source: 'url' }),
      download({ path: 'relative/mine.gguf' }),
      download({ path: 42 }),
      download({ bytes: -1 }),
      download({ addedAt: Number.NaN }),
      download({ origin: undefined }),
      download({ modelName: ' ' }),
      file('f.gguf', { modelName: 'ft:mine' }),
      download(),
      download({ path: path.join(dir, 'second.gguf') }),
    ]);
    assert.equal(read.models.length, 1);
    assert.equal(read.dropped.length, 11);
    const report = describeDropped(read.dropped)!;
    assert.ok(!report.includes(dir) && !report.includes('ft:mine'), report);
    assert.match(report, /ignored 11/);
    assert.equal(describeDropped([]), undefined);
  });

  it('drops a list that is not a list, and reads nothing stored as empty', () => {
    assert.deepEqual(readStoredLocalModels(undefined), { models: [], dropped: [] });
    for (const raw of [{}, 'x', 3, null]) assert.deepEqual(readStoredLocalModels(raw).models, []);
  });

  it('carries no field besides the record', () => {
    const [m] = readStoredLocalModels([download({ extra: 'x', id: 'local:0000000000000000' })]).models;
    assert.deepEqual(Object.keys(m!).sort(), ['addedAt', 'bytes', 'id', 'label', 'modelName', 'origin', 'path', 'source']);
    assert.notEqual(m!.id, 'local:0000000000000000', 'the id is derived, never read');
  });

  it('reads at most the limit', () => {
    const many = Array.from({ length: MAX_LOCAL_MODELS + 5 }, (_, i) => file(`m${i}.gguf`));
    const read = readStoredLocalModels(many);
    assert.equal(read.models.length, MAX_LOCAL_MODELS);
    assert.equal(read.dropped.length, 5);
  });

  it('lists one service downloads, then the chosen files, each by name', () => {
    const { models } = readStoredLocalModels([
      file('zeta.gguf'),
      download({ modelName: 'ft:b' }),
      download({ modelName: 'ft:other', origin: 'https://b.example' }),
      file('alpha.gguf'),
      download({ modelName: 'ft:a' }),
    ]);
    assert.deepEqual(
      visibleLocalModels(models, ORIGIN).map((m) => m.label),
      ['ft:a', 'ft:b', 'alpha.gguf', 'zeta.gguf'],
    );
    assert.deepEqual(
      visibleLocalModels(models, undefined).map((m) => m.label),
      ['alpha.gguf', 'zeta.gguf'],
      'no service configured: only the chosen files',
    );
  });
});
