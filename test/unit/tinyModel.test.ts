// The tiny GGUF model the tests and the emulator write: valid for llama.cpp (it loads and generates with the real
// node-llama-cpp, one thread), small, and the same bytes for the same seed; the emulator's finetune artifacts are it.
import { strict as assert } from 'node:assert';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGguf } from '../service/gguf';
import { tinyModelGguf } from '../service/tinyModel';

async function generateWith(modelPath: string): Promise<{ text: string; chunks: string[]; template: string }> {
  const llm = await import('node-llama-cpp');
  const llama = await llm.getLlama({ build: 'never', gpu: false, logLevel: llm.LlamaLogLevel.error, progressLogs: false });
  const model = await llama.loadModel({ modelPath });
  try {
    const context = await model.createContext({ contextSize: 512, threads: 1 });
    const session = new llm.LlamaChatSession({ contextSequence: context.getSequence(), systemPrompt: '' });
    const chunks: string[] = [];
    const text = await session.prompt('Hello', { maxTokens: 16, temperature: 0, onTextChunk: (c) => chunks.push(c) });
    return { text, chunks, template: session.chatWrapper.wrapperName };
  } finally {
    await model.dispose();
  }
}

describe('tiny GGUF model', function () {
  this.timeout(30_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tiny-model-'));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is 0.3–0.7 MB and the same bytes for the same seed, other bytes for another', () => {
    const a = tinyModelGguf({ seed: 'job-1' });
    assert.ok(a.length > 300 * 1024 && a.length < 700 * 1024, `${a.length} bytes`);
    assert.ok(a.equals(tinyModelGguf({ seed: 'job-1' })));
    assert.ok(!a.equals(tinyModelGguf({ seed: 'job-2' })));
  });

  it('loads in node-llama-cpp, uses the ChatML template, and streams what it generates', async () => {
    const path = join(dir, 'tiny.gguf');
    await writeFile(path, tinyModelGguf({ seed: 'load' }));
    const { text, chunks, template } = await generateWith(path);
    assert.equal(template, 'ChatML');
    assert.ok(chunks.length > 0);
    assert.equal(chunks.join(''), text);
  });

  it('is what the emulator writes for an artifact of at least its size: loadable, with filler up to the exact size', async () => {
    const path = join(dir, 'artifact.gguf');
    const { size } = await writeGguf(path, { modelName: 'support-v1', baseModel: 'base', totalBytes: 2 * 1024 * 1024 + 3 });
    assert.equal(size, 2 * 1024 * 1024 + 3);
    const { chunks } = await generateWith(path);
    assert.ok(chunks.length > 0);
  });
});
