// The pre-flight read's memory bound (issue 35, finding 1): small files that inflate to a gigabyte when read must not
// take the memory of the process that asked for the read (the extension host; here, mocha's), and the process that
// reads stays under its bound. Figures, not times: each read's peak resident memory is the reader process's own
// high-water mark (getrusage), this process's is its own.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { preflightRead, type PreflightFile, type PreflightOptions } from '../../src/features/finetune/preflight';
import { preflightWarnings } from '../../src/features/finetune/preflightWarnings';
import { writeDocx, writePdf } from '../service/fixtures';
import { GB, writeDocxBomb, writePdfBomb } from './builders/decompressionBombs';

const MB = 1024 * 1024;
/** The reader's bound in these tests: small, so a bomb is stopped after a few hundred MB of inflating. */
const CAP_MB = 256;
/**
 * What the reader may pass its bound by before it is ended: it samples its resident memory every 5 ms from a thread the
 * inflating does not block, and inflating adds a few hundred MB a second, so a sample a few scheduler slices late on a
 * loaded machine lets tens of MB through. The readers these tests stop would reach 2 GB unbounded.
 */
const SLACK_MB = 128;
/** What this process's own high-water mark may grow by while the bombs are read (it gets only counts and words back). */
const HOST_GROWTH_MB = 64;

/** A process's command line ('' once it has ended). */
function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** This process's resident high-water mark, in bytes. */
const hostPeak = (): number => process.resourceUsage().maxRSS * 1024;

describe('Pre-flight read: the memory bound on files that inflate when read (issue 35)', function () {
  this.timeout(120_000);
  let dir: string;
  const file = (name: string): PreflightFile => ({ path: path.join(dir, name), kind: name.endsWith('.pdf') ? 'pdf' : 'docx', label: name });

  /** Reads the files with the test's bound; every peak the reader reports, and this process's growth meanwhile. */
  async function read(
    names: string[],
  ): Promise<{ results: Awaited<ReturnType<typeof preflightRead>>; peaks: number[]; hostGrowth: number }> {
    const before = hostPeak();
    const peaks: number[] = [];
    const options: PreflightOptions = { maxMemoryMb: CAP_MB, onReaderPeak: (bytes) => peaks.push(bytes) };
    const results = await preflightRead(names.map(file), options);
    return { results, peaks, hostGrowth: hostPeak() - before };
  }

  before(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hr-preflight-bombs-'));
    // Made once for the file: about 1 MB each on disk, 1 GB inflated.
    await writePdfBomb(path.join(dir, 'bomb.pdf'), GB);
    await writeDocxBomb(path.join(dir, 'bomb.docx'), GB);
    await writeDocxBomb(path.join(dir, 'lying.docx'), GB, { lie: true });
    await writePdf(path.join(dir, 'handbook.pdf'), ['Hotel stays are reimbursed up to the city rate.']);
    await writeDocx(path.join(dir, 'faq.docx'), ['How do I book a flight?', 'Use the travel portal.']);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stops reading a 1 MB PDF that inflates to 1 GB at the bound, outside this process, and says so in words', async () => {
    const { results, peaks, hostGrowth } = await read(['bomb.pdf']);
    assert.ok(hostGrowth < HOST_GROWTH_MB * MB, `this process grew by ${Math.round(hostGrowth / MB)} MB`);
    assert.equal(results[0]!.unreadable, `reading it needed more than ${CAP_MB} MB of memory (it inflates when read); it was not read`);
    assert.equal(peaks.length, 1, 'the reader reported its peak');
    assert.ok(peaks[0]! > (CAP_MB - 16) * MB, `the reader got near its bound before it was stopped: ${peaks[0]! / MB} MB`);
    assert.ok(
      peaks[0]! < (CAP_MB + SLACK_MB) * MB,
      `the reader's peak ${Math.round(peaks[0]! / MB)} MB is past ${CAP_MB} + ${SLACK_MB} MB`,
    );
    assert.deepEqual(
      preflightWarnings(results).map((w) => w.message),
      [`bomb.pdf: reading it needed more than ${CAP_MB} MB of memory (it inflates when read); it was not read. It can still be uploaded.`],
    );
  });

  it('refuses a 1 MB DOCX whose ZIP directory declares 1 GB of XML before anything inflates it, and says how much', async () => {
    const { results, peaks, hostGrowth } = await read(['bomb.docx']);
    assert.ok(hostGrowth < HOST_GROWTH_MB * MB, `this process grew by ${Math.round(hostGrowth / MB)} MB`);
    assert.equal(
      results[0]!.unreadable,
      `it inflates to 1.0 GB when read, more than the ${CAP_MB / 4} MB this review reads; it was not read`,
    );
    assert.deepEqual(peaks, [], 'no reader was started for it');
  });

  it('holds a DOCX whose directory lies (declaring 4 KB) to the same bound', async () => {
    const { results, peaks, hostGrowth } = await read(['lying.docx']);
    assert.ok(hostGrowth < HOST_GROWTH_MB * MB, `this process grew by ${Math.round(hostGrowth / MB)} MB`);
    // jszip, under mammoth, stops at the first inflated byte past the size declared: well under the bound.
    assert.match(results[0]!.unreadable ?? '', /^it cannot be read as a Word document \(.*size mismatch\)$/);
    assert.equal(peaks.length, 1);
    assert.ok(
      peaks[0]! < (CAP_MB + SLACK_MB) * MB,
      `the reader's peak ${Math.round(peaks[0]! / MB)} MB is past ${CAP_MB} + ${SLACK_MB} MB`,
    );
  });

  it('reads the other files of the same review as usual, before and after a bomb', async () => {
    const { results, hostGrowth } = await read(['handbook.pdf', 'bomb.pdf', 'faq.docx', 'bomb.docx', 'handbook.pdf']);
    assert.deepEqual(
      results.map((r) => [r.label, r.words, r.unreadable === undefined]),
      [
        ['handbook.pdf', 9, true],
        ['bomb.pdf', 0, false],
        ['faq.docx', 10, true],
        ['bomb.docx', 0, false],
        ['handbook.pdf', 9, true],
      ],
    );
    assert.ok(hostGrowth < HOST_GROWTH_MB * MB, `this process grew by ${Math.round(hostGrowth / MB)} MB`);
  });

  it('loads no native code into the reader process, even where node_modules holds @napi-rs/canvas (Restricted Mode)', async function () {
    // Linux shows a process's mapped files; a checkout without the optional canvas package cannot show a refusal.
    if (process.platform !== 'linux') this.skip();
    try {
      require.resolve('@napi-rs/canvas');
    } catch {
      this.skip();
    }
    const mapped: string[] = [];
    // After each file the reader is still running: its children of this process are looked at then.
    const onReaderPeak = (): void => {
      // This process's children that run the reader's module (another test file may leave a child of its own).
      const pids = spawnSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' })
        .stdout.split('\n')
        .filter((pid) => pid !== '' && cmdline(pid).includes('preflightChild.js'));
      for (const pid of pids) {
        mapped.push(
          ...readFileSync(`/proc/${pid}/maps`, 'utf8')
            .split('\n')
            .filter((l) => /\.node$/.test(l)),
        );
      }
      mapped.push(`${pids.length} reader(s)`);
    };
    const results = await preflightRead([file('handbook.pdf'), file('faq.docx')], { maxMemoryMb: CAP_MB, onReaderPeak });
    assert.deepEqual(
      results.map((r) => r.words),
      [9, 10],
    );
    assert.deepEqual(mapped, ['1 reader(s)', '1 reader(s)']);
  });
});
