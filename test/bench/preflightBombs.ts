// Peak memory of the pre-flight read on decompression bombs (issue 35, finding 1), with the defaults: run as
// `node out/test/bench/preflightBombs.js <pdf|docx|docx-lie> <inflated MB> <dir>`, one bomb per process, so that the
// process's high-water mark (VmHWM, Linux) is that read's alone. Prints one JSON line.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { preflightRead } from '../../src/features/finetune/preflight';
import { writeDocxBomb, writePdfBomb } from '../unit/builders/decompressionBombs';

function hwm(pid: number | 'self'): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

async function main(): Promise<void> {
  const [kind = 'pdf', mb = '1024', dir = '/tmp'] = process.argv.slice(2);
  const file = path.join(dir, `bomb-${kind}-${mb}.${kind === 'pdf' ? 'pdf' : 'docx'}`);
  if (kind === 'pdf') await writePdfBomb(file, Number(mb) * 1024 * 1024);
  else await writeDocxBomb(file, Number(mb) * 1024 * 1024, { lie: kind === 'docx-lie' });
  const before = hwm('self');
  let readerPeak = 0;
  const started = Date.now();
  const [r] = await preflightRead([{ path: file, kind: kind === 'pdf' ? 'pdf' : 'docx', label: path.basename(file) }], {
    onReaderPeak: (bytes: number) => (readerPeak = Math.max(readerPeak, bytes)),
  });
  const after = hwm('self');
  console.log(
    JSON.stringify({
      kind,
      inflatedMb: Number(mb),
      fileBytes: readFileSync(file).length,
      hostPeakBefore: before,
      hostPeak: after,
      readerPeak,
      seconds: (Date.now() - started) / 1000,
      pages: r?.pages,
      words: r?.words,
      unreadable: r?.unreadable,
    }),
  );
}
void main();
