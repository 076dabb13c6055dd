// The model names kept per service origin for when the model list cannot be read: names a person typed that the
// service accepted, and names finetunes made. Newest first, bounded, one entry per name, each origin its own list,
// written through editGlobalState (so an echo of an earlier flush does not undo a name), read back through a check.
import { strict as assert } from 'node:assert';
import { KnownModelNames, MAX_KNOWN_MODEL_NAMES, knownModelsKey, readKnownModelNames } from '../../src/connection/knownModelNames';
import { EchoingWorkbench } from './echoingState';

const A = 'https://a.example';
const B = 'https://b.example:8443';

describe('known model names', () => {
  it('keeps each origin its own list, newest first', async () => {
    const state = new EchoingWorkbench().window();
    const known = new KnownModelNames(state);
    await known.remember(A, 'typed-one', 'typed', 1_000);
    await known.remember(A, 'ft:made', 'job', 2_000);
    await known.remember(B, 'other-service', 'typed', 3_000);
    assert.deepEqual(known.list(A), [
      { name: 'ft:made', source: 'job', at: 2_000 },
      { name: 'typed-one', source: 'typed', at: 1_000 },
    ]);
    assert.deepEqual(
      known.list(B).map((k) => k.name),
      ['other-service'],
    );
    assert.deepEqual(known.list('https://c.example'), []);
  });

  it('tells its listeners after a name is kept and after every name is forgotten, not for a name it refuses', async () => {
    const state = new EchoingWorkbench().window();
    const known = new KnownModelNames(state);
    const seen: string[][] = [];
    const listening = known.onDidChange(() => seen.push(known.list(A).map((k) => k.name)));
    await known.remember(A, 'm1', 'typed', 1_000);
    await known.remember(A, 'not a name\n', 'typed', 2_000);
    await known.forgetAll();
    listening.dispose();
    await known.remember(A, 'm2', 'typed', 3_000);
    assert.deepEqual(seen, [['m1'], []]);
  });

  it('merges a name given again into one entry, moved first; a job having made it is kept', async () => {
    const state = new EchoingWorkbench().window();
    const known = new KnownModelNames(state);
    await known.remember(A, 'm1', 'typed', 1_000);
    await known.remember(A, 'm2', 'job', 2_000);
    await known.remember(A, 'm1', 'typed', 3_000);
    await known.remember(A, 'm2', 'typed', 4_000);
    assert.deepEqual(known.list(A), [
      { name: 'm2', source: 'job', at: 4_000 },
      { name: 'm1', source: 'typed', at: 3_000 },
    ]);
  });

  it(`keeps at most ${MAX_KNOWN_MODEL_NAMES} names, the newest`, async () => {
    const state = new EchoingWorkbench().window();
    const known = new KnownModelNames(state);
    for (let i = 0; i < MAX_KNOWN_MODEL_NAMES + 5; i++) await known.remember(A, `m${i}`, 'typed', i);
    const names = known.list(A).map((k) => k.name);
    assert.equal(names.length, MAX_KNOWN_MODEL_NAMES);
    assert.equal(names[0], `m${MAX_KNOWN_MODEL_NAMES + 4}`);
    assert.ok(!names.includes('m4'), 'the oldest names were kept');
    assert.ok(names.includes('m5'));
  });

  it('refuses what cannot be a name, and drops stored entries that are not ours', async () => {
    const state = new EchoingWorkbench().window();
    const known = new KnownModelNames(state);
    await known.remember(A, '  ', 'typed', 1);
    await known.remember(A, 'bad\u0007name', 'typed', 1);
    await known.remember(A, 'x'.repeat(257), 'typed', 1);
    assert.deepEqual(known.list(A), []);
    assert.deepEqual(
      readKnownModelNames([
        { name: 'ok', source: 'job', at: 5 },
        { name: 'no-source', at: 5 },
        { name: 'odd', source: 'guessed', at: 5 },
        { name: 'extra', source: 'typed', at: 5, url: 'http://x' },
        'plain',
        null,
      ]),
      [{ name: 'ok', source: 'job', at: 5 }],
    );
    assert.deepEqual(readKnownModelNames({ not: 'a list' }), []);
  });

  it('keeps names given at once through the echo of an earlier flush', async () => {
    const workbench = new EchoingWorkbench();
    const known = new KnownModelNames(workbench.window());
    await Promise.all([
      known.remember(A, 'first', 'typed', 1),
      known.remember(A, 'second', 'job', 2),
      known.remember(A, 'third', 'typed', 3),
    ]);
    const stored = readKnownModelNames(workbench.stored[knownModelsKey(A)]);
    assert.deepEqual(
      stored.map((k) => k.name),
      ['third', 'second', 'first'],
    );
  });

  it('a name typed is kept only once the service accepted it, and only if it was typed', async () => {
    const state = new EchoingWorkbench().window();
    const known = new KnownModelNames(state);
    known.noteTyped('typed-then-used');
    await known.accepted(A, 'picked-from-list', 10);
    assert.deepEqual(known.list(A), []);
    await known.accepted(A, 'typed-then-used', 11);
    assert.deepEqual(known.list(A), [{ name: 'typed-then-used', source: 'typed', at: 11 }]);
  });

  it('forgets every origin', async () => {
    const state = new EchoingWorkbench().window();
    const known = new KnownModelNames(state);
    await known.remember(A, 'a', 'typed', 1);
    await known.remember(B, 'b', 'job', 2);
    assert.equal(known.origins().length, 2);
    await known.forgetAll();
    assert.deepEqual(known.list(A), []);
    assert.deepEqual(known.list(B), []);
    assert.deepEqual(known.origins(), []);
  });
});
