// The pre-flight read as the finetune tool's confirmation shows it (issue 29): the wizard's read and warnings, bounded
// so that the confirmation always shows: a read that fails, never ends or is cancelled is said in it, never thrown.
// The bounds here are never what makes a case pass: the slow reads never end at all.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { preflightRead, type PreflightFile, type PreflightResult } from '../../src/features/finetune/preflight';
import { confirmationPreflight, readForConfirmation } from '../../src/features/finetune/preflightConfirmation';
import { formatBytes } from '../../src/util/byteSize';
import { markdownLiteral } from '../../src/util/untrustedText';
import { writePdf, writeTextlessPdf } from '../service/fixtures';

const never = (): Promise<PreflightResult[]> => new Promise(() => undefined);

describe('Pre-flight read in the finetune tool’s confirmation', function () {
  let dir: string;
  const file = (name: string): PreflightFile => ({ path: path.join(dir, name), kind: 'pdf', label: name });

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hr-preflight-confirm-'));
    await writePdf(path.join(dir, 'handbook.pdf'), ['Receipts are submitted within thirty days of the trip.']);
    await writeTextlessPdf(path.join(dir, 'scan [x](command:evil).pdf'), 2);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("names each file's pages and words and the warnings, the names inert", async () => {
    const files = [file('handbook.pdf'), file('scan [x](command:evil).pdf')];
    const outcome = await readForConfirmation(files);
    assert.ok('results' in outcome, JSON.stringify(outcome));
    const shown = confirmationPreflight(
      files.map((f, i) => ({ label: f.label, size: 1000 + i })),
      outcome,
      5,
    );
    assert.deepEqual(shown.list, [
      `- ${markdownLiteral('handbook.pdf')} (${formatBytes(1000)}) — 1 page, 9 words`,
      `- ${markdownLiteral('scan [x](command:evil).pdf')} (${formatBytes(1001)}) — 2 pages, 0 words`,
    ]);
    assert.equal(shown.warnings.length, 2, shown.warnings.join('\n'));
    assert.ok(shown.warnings[0]!.startsWith(`- ${markdownLiteral('scan [x](command:evil).pdf looks scanned: 0 words on 2 pages')}`));
    assert.ok(shown.warnings[1]!.startsWith(`- ${markdownLiteral('5 questions asked of 9 words of text')}`));
    assert.ok(!shown.warnings.join('\n').includes('[x](command:'), 'a link survived');
    assert.equal(shown.note, undefined);
  });

  it('says when two files have the same bytes', async () => {
    const files = [file('handbook.pdf'), { ...file('handbook.pdf'), label: 'copy.pdf' }];
    const outcome = await readForConfirmation(files);
    const shown = confirmationPreflight(
      [
        { label: 'handbook.pdf', size: 1 },
        { label: 'copy.pdf', size: 1 },
      ],
      outcome,
      0,
    );
    assert.deepEqual(shown.warnings, [
      `- ${markdownLiteral('handbook.pdf, copy.pdf have the same bytes (SHA-256): the service reads the same text 2 times.', 400)}`,
    ]);
  });

  it('a read that does not end within the bound is stopped and said, the files still listed with their sizes', async () => {
    let signal: AbortSignal | undefined;
    const outcome = await readForConfirmation([file('handbook.pdf')], {
      boundMs: 50,
      read: (_files, options) => {
        signal = options?.signal;
        return never();
      },
    });
    assert.deepEqual(outcome, { failure: 'not read within 0.05 s' });
    assert.equal(signal?.aborted, true, 'the read was told to stop');
    const shown = confirmationPreflight([{ label: 'handbook.pdf', size: 2048 }], outcome, 5);
    assert.deepEqual(shown.list, [`- ${markdownLiteral('handbook.pdf')} (${formatBytes(2048)})`]);
    assert.deepEqual(shown.warnings, []);
    assert.equal(shown.note, markdownLiteral('The files were not read here (not read within 0.05 s): no pages, words or warnings.', 400));
  });

  it('a read that fails is said, not thrown', async () => {
    const outcome = await readForConfirmation([file('handbook.pdf')], {
      read: () => Promise.reject(new Error('no worker [x](command:y)')),
    });
    assert.deepEqual(outcome, { failure: 'no worker [x](command:y)' });
    const shown = confirmationPreflight([{ label: 'handbook.pdf', size: 1 }], outcome, 5);
    assert.ok(shown.note && !shown.note.includes('[x]('), shown.note);
    const thrown = await readForConfirmation([file('handbook.pdf')], {
      read: () => {
        throw new Error('no reader');
      },
    });
    assert.deepEqual(thrown, { failure: 'no reader' });
  });

  it('a cancelled confirmation stops the read at once', async () => {
    const controller = new AbortController();
    const pending = readForConfirmation([file('handbook.pdf')], { boundMs: 3_600_000, signal: controller.signal, read: never });
    controller.abort();
    assert.deepEqual(await pending, { failure: 'cancelled' });
  });

  it('reads with the wizard’s reader by default', async () => {
    const files = [file('handbook.pdf')];
    const outcome = await readForConfirmation(files);
    assert.deepEqual(outcome, { results: await preflightRead(files) });
  });
});
