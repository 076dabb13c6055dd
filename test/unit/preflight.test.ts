// The pre-flight read of finetune sources (issue 29): counts and warnings on real PDF and DOCX files, read in the
// reader process exactly as the wizard reads them.
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { preflightRead, type PreflightFile } from '../../src/features/finetune/preflight';
import { preflightWarnings, WORDS_PER_QUESTION } from '../../src/features/finetune/preflightWarnings';
import { countWords } from '../../src/features/finetune/sourceText';
import { writeBrokenPdf, writeDocx, writePdf, writeTextlessPdf } from '../service/fixtures';
import { writeCjkPdf, writePasswordPdf, writeTableOnlyDocx, writeTextPagesPdf } from './builders/sourceDocuments';

const HANDBOOK = [
  'Employees may book economy flights for trips longer than four hours.',
  'Hotel stays are reimbursed up to the city rate published by finance.',
  'Receipts must be submitted within thirty days of the end of the trip.',
];

// The handbook's rules in Japanese, a line each: seven runs of letters between CJK punctuation.
const JAPANESE_HANDBOOK = [
  '出張旅費規程。',
  '四時間を超える出張では、エコノミークラスの航空券を予約できます。',
  'ホテル代は、経理が公表する都市の上限額まで払い戻されます。',
  '領収書は、出張終了後三十日以内に提出してください。',
];

describe('Pre-flight read of finetune sources', function () {
  let dir: string;
  const file = (name: string): PreflightFile => ({ path: path.join(dir, name), kind: name.endsWith('.pdf') ? 'pdf' : 'docx', label: name });

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hr-preflight-'));
    await writePdf(path.join(dir, 'handbook.pdf'), HANDBOOK);
    copyFileSync(path.join(dir, 'handbook.pdf'), path.join(dir, 'handbook copy.pdf'));
    await writeTextlessPdf(path.join(dir, 'scan.pdf'), 3);
    await writePasswordPdf(path.join(dir, 'locked.pdf'));
    await writeBrokenPdf(path.join(dir, 'broken.pdf'));
    await writeDocx(path.join(dir, 'faq.docx'), ['How do I book a flight?', 'Use the travel portal.']);
    await writeTableOnlyDocx(path.join(dir, 'rates.docx'), [
      ['City', 'Rate'],
      ['Paris', 'Two hundred euros'],
    ]);
    await writeTextPagesPdf(path.join(dir, 'long.pdf'), 12);
    await writeCjkPdf(path.join(dir, 'japanese.pdf'), JAPANESE_HANDBOOK);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('counts words as a person would', () => {
    assert.equal(countWords("The employee's 3.5-day trip: e-mail it!"), 6);
    assert.equal(countWords('  \n '), 0);
  });

  it('counts each Chinese or Japanese character as a word, as word processors do (the text has no spaces)', () => {
    assert.equal(countWords('返品は三十日以内'), 8);
    assert.equal(countWords('サポートは平日に対応します。'), 13);
    assert.equal(countWords('Version 2 の説明'), 5);
    assert.equal(countWords('지원은 평일에 합니다'), 3, 'Korean separates its words with spaces');
  });

  it("counts a text PDF's pages and words, and gives the text the service would read", async () => {
    const [r] = await preflightRead([file('handbook.pdf')]);
    assert.equal(r!.unreadable, undefined);
    assert.equal(r!.pages, 1);
    assert.equal(r!.words, countWords(HANDBOOK.join(' ')));
    assert.match(r!.text, /economy flights/);
    assert.equal(r!.encrypted, false);
    assert.match(r!.sha256, /^[0-9a-f]{64}$/);
    assert.deepEqual(preflightWarnings([r!]), []);
  });

  it('counts the pages of a long PDF', async () => {
    const [r] = await preflightRead([file('long.pdf')]);
    assert.equal(r!.pages, 12);
    assert.equal(r!.words, 12 * 10 * 8);
  });

  it("reads the CJK text of a PDF whose font uses one of pdfjs's predefined CMaps, and does not call it scanned", async () => {
    const results = await preflightRead([file('japanese.pdf')]);
    assert.equal(results[0]!.unreadable, undefined);
    assert.equal(results[0]!.text.replace(/\s+/g, ''), JAPANESE_HANDBOOK.join(''));
    assert.equal(results[0]!.words, countWords(JAPANESE_HANDBOOK.join('\n')));
    assert.deepEqual(preflightWarnings(results), []);
  });

  it('warns that a PDF with no text layer looks scanned', async () => {
    const results = await preflightRead([file('scan.pdf')]);
    assert.equal(results[0]!.pages, 3);
    assert.equal(results[0]!.words, 0);
    const warnings = preflightWarnings(results);
    assert.deepEqual(
      warnings.map((w) => [w.code, w.labels]),
      [['scanned', ['scan.pdf']]],
    );
    assert.match(warnings[0]!.message, /looks scanned.*will likely read nothing/);
  });

  it('says a PDF locked with a password is encrypted and unreadable, without failing the others', async () => {
    const results = await preflightRead([file('locked.pdf'), file('handbook.pdf')]);
    assert.equal(results[0]!.encrypted, true);
    assert.match(results[0]!.unreadable ?? '', /encrypted with a password/);
    assert.equal(results[1]!.unreadable, undefined);
    assert.deepEqual(
      preflightWarnings(results).map((w) => w.code),
      ['encrypted'],
    );
  });

  it('gives a PDF pdfjs cannot parse its reason in words', async () => {
    const results = await preflightRead([file('broken.pdf')]);
    assert.match(results[0]!.unreadable ?? '', /pdfjs cannot read it \(.+\)/);
    assert.match(preflightWarnings(results)[0]!.message, /broken\.pdf: pdfjs cannot read it .*It can still be uploaded\./);
  });

  it("counts a DOCX's paragraphs and words", async () => {
    const [r] = await preflightRead([file('faq.docx')]);
    assert.deepEqual([r!.paragraphs, r!.words, r!.encrypted], [2, 10, false]);
    assert.equal(r!.text, 'How do I book a flight?\n\nUse the travel portal.');
  });

  it('reads the cells of a DOCX that holds only a table', async () => {
    const [r] = await preflightRead([file('rates.docx')]);
    assert.deepEqual([r!.paragraphs, r!.words], [4, 6]);
    assert.match(r!.text, /Paris/);
    assert.deepEqual(preflightWarnings([r!]), []);
  });

  it('warns when two files have the same bytes', async () => {
    const results = await preflightRead([file('handbook.pdf'), file('faq.docx'), file('handbook copy.pdf')]);
    const warnings = preflightWarnings(results);
    assert.deepEqual(
      warnings.map((w) => [w.code, w.labels]),
      [['duplicate', ['handbook.pdf', 'handbook copy.pdf']]],
    );
    assert.match(warnings[0]!.message, /same bytes \(SHA-256\)/);
  });

  it('warns, with the ratio, when more questions are asked than the text can carry', async () => {
    const results = await preflightRead([file('faq.docx')]); // 10 words
    const warnings = preflightWarnings(results, 6);
    assert.deepEqual(
      warnings.map((w) => w.code),
      ['tooManyQuestions'],
    );
    assert.match(warnings[0]!.message, /6 questions asked of 10 words of text: 1\.7 words per question/);
    assert.deepEqual(preflightWarnings(results, 10 / WORDS_PER_QUESTION), []);
  });

  it('stops a read that takes too long and reads the next file in a fresh reader process', async () => {
    const results = await preflightRead([file('long.pdf'), file('faq.docx')], { timeoutMs: 1 });
    assert.match(results[0]!.unreadable ?? '', /took longer than 0 s; stopped/);
    // The second read either finished or was stopped the same way: never a crash, never a hang.
    assert.equal(results.length, 2);
  });
  it('stops at once when cancelled (the wizard closed), reading no further file', async () => {
    const stop = new AbortController();
    const reading = preflightRead([file('long.pdf'), file('faq.docx')], { signal: stop.signal });
    stop.abort();
    const results = await reading;
    assert.deepEqual(
      results.map((r) => [r.label, r.unreadable]),
      [['long.pdf', 'not read: cancelled']],
    );
  });
});
