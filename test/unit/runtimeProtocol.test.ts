// The local runtime's messages: each side acts only on a message of exactly the known shape; anything else (a child
// left in a bad state, a parent of another version) is refused whole.
import { strict as assert } from 'node:assert';
import { parseFromChild, parseToChild } from '../../src/local/runtimeProtocol';

const generate = {
  type: 'generate',
  id: 1,
  modelPath: '/m/a.gguf',
  prompt: 'Hi',
  temperature: 0.7,
  options: { threads: 1, contextSize: 512 },
};

describe('local runtime protocol', () => {
  it('accepts the messages each side sends', () => {
    assert.deepEqual(parseToChild(generate), generate);
    assert.deepEqual(parseToChild({ ...generate, maxTokens: 10 }), { ...generate, maxTokens: 10 });
    assert.deepEqual(parseToChild({ type: 'abort', id: 1 }), { type: 'abort', id: 1 });
    for (const m of [
      { type: 'ready', gpu: false },
      { type: 'ready', gpu: 'cuda' },
      { type: 'loading', id: 2 },
      { type: 'loaded', id: 2, reused: true },
      { type: 'chunk', id: 2, text: 'a' },
      { type: 'done', id: 2, text: 'ab', stopped: false, tokens: 2 },
      { type: 'failed', id: 2, stage: 'load', message: 'no' },
      { type: 'memory', rss: 1e8 },
    ]) {
      assert.deepEqual(parseFromChild(m), m, JSON.stringify(m));
    }
  });

  it('refuses unknown types, unknown or missing fields and wrong values', () => {
    for (const m of [
      null,
      'generate',
      [generate],
      { ...generate, type: 'run' },
      { ...generate, extra: 1 },
      { ...generate, id: -1 },
      { ...generate, id: 1.5 },
      { ...generate, modelPath: '' },
      { ...generate, temperature: Number.NaN },
      { ...generate, maxTokens: 0 },
      { ...generate, options: { threads: 1 } },
      { ...generate, options: { threads: 1, contextSize: 512, gpu: 'auto' } },
      { type: 'abort' },
    ]) {
      assert.equal(parseToChild(m), undefined, JSON.stringify(m));
    }
    for (const m of [
      { type: 'chunk', id: 2 },
      { type: 'chunk', id: 2, text: 5 },
      { type: 'done', id: 2, text: 'a', stopped: 'no', tokens: 1 },
      { type: 'failed', id: 2, stage: 'run', message: 'x' },
      { type: 'memory', rss: -1 },
      { type: 'ready', gpu: true },
      JSON.parse('{"type":"loaded","id":2,"reused":true,"__proto__":1}') as unknown,
      { type: 'exit' },
    ]) {
      assert.equal(parseFromChild(m), undefined, JSON.stringify(m));
    }
  });
});
