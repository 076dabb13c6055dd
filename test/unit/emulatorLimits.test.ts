// The emulator's limits agree with the extension's defaults: a finetuning job the extension lets through with its
// default settings (hostedReasoning.finetune.maxFiles, maxFileSizeMB) is never refused by the emulator for its size,
// and one file more than the default is refused by both, the emulator with 413.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startEmulator, type Emulator } from '../service/emulator';
import { writePdf } from '../service/fixtures';
import { MAX_FILE_BYTES, MAX_FILES } from '../service/multipart';
import { BASE, headers } from './emulator-helpers';

const root = path.resolve(__dirname, '../../..');
const settings = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  }
).contributes.configuration.properties;
const DEFAULT_MAX_FILES = settings['hostedReasoning.finetune.maxFiles']?.default as number;
const DEFAULT_MAX_FILE_MB = settings['hostedReasoning.finetune.maxFileSizeMB']?.default as number;

describe('emulator limits and the extension defaults', function () {
  this.timeout(60_000);
  let em: Emulator;
  let dir: string;
  let pdf: Buffer;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'emulator-limits-'));
    await writePdf(path.join(dir, 'one.pdf'), ['One line of text.']);
    pdf = await readFile(path.join(dir, 'one.pdf'));
    em = await startEmulator({ finetuneDurationMs: 60_000 });
  });
  after(async () => {
    await em.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('accepts as many files as the extension does by default, each as large', () => {
    assert.equal(typeof DEFAULT_MAX_FILES, 'number');
    assert.equal(MAX_FILES, DEFAULT_MAX_FILES);
    assert.ok(MAX_FILE_BYTES >= DEFAULT_MAX_FILE_MB * 1024 * 1024, `${MAX_FILE_BYTES} < ${DEFAULT_MAX_FILE_MB} MB`);
  });

  /** The answer's status and, when it is not 200, its words (so a failure says what the emulator refused). */
  async function upload(count: number): Promise<string> {
    const form = new FormData();
    for (let i = 0; i < count; i++) form.append('files', new Blob([new Uint8Array(pdf)]), `doc-${i}.pdf`);
    for (const [k, v] of Object.entries({ numQs: '5', mode: 'pretraining', modelName: `limits-${count}`, modelType: BASE, use_case: '' })) {
      form.append(k, v);
    }
    const res = await fetch(`${em.url}/cr/generate_questions`, { method: 'POST', headers: headers(), body: form });
    const text = await res.text();
    return res.status === 200 ? '200' : `${res.status} ${text}`;
  }

  it('starts a job from the default number of files and refuses one more with 413', async () => {
    assert.equal(await upload(DEFAULT_MAX_FILES), '200');
    assert.match(await upload(DEFAULT_MAX_FILES + 1), /^413 /);
  });
});
