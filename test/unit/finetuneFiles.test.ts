// The finetune file checks on real documents: PDFs and DOCX files made by the emulator's fixtures, renamed text,
// ZIPs that are not DOCX, empty, oversized, missing and duplicated files, the count limit. Every refusal must name
// the file, and every problem must be reported at once.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, truncateSync, statSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { crc32 } from 'node:zlib';
import { formatBytes, formatOverLimit, formatTransfer } from '../../src/util/byteSize';
import {
  checkFinetuneFiles,
  nodeByteReader,
  sniff,
  type ByteReader,
  type FileLimits,
  type SourcePlace,
} from '../../src/features/finetune/finetuneFiles';
import { readZipEntries, readZipEntryNames, ZipFormatError } from '../../src/features/finetune/zipEntries';
import { outsideMessage } from '../../src/features/finetune/realPlace';
import { HARD_LINK_REASON } from '../../src/api/pathInside';
import { writeDocx, writePdf } from '../service/fixtures';

const LIMITS: FileLimits = { maxFileBytes: 512 * 1024 * 1024, maxFiles: 100 };
const PARAGRAPHS = ['LoRA adapters tune a few low-rank matrices.', 'The base model stays frozen during training.'];

/** A ZIP with stored (uncompressed) entries: enough structure for the central-directory reader, CRCs correct. */
function storedZip(entries: { name: string; data: Buffer }[], comment = ''): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const commentBytes = Buffer.from(comment, 'latin1');
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  eocd.writeUInt16LE(commentBytes.length, 20);
  return Buffer.concat([...locals, cd, eocd, commentBytes]);
}

/** Wraps a reader and counts the bytes it hands out. */
function countingReader(inner: ByteReader = nodeByteReader): ByteReader & { bytes: number } {
  const r = {
    bytes: 0,
    localPath: (id: string) => inner.localPath(id),
    stat: (id: string) => inner.stat(id),
    read: async (id: string, position: number, length: number) => {
      const b = await inner.read(id, position, length);
      r.bytes += b.length;
      return b;
    },
  };
  return r;
}

describe('finetune file checks', function () {
  this.timeout(20_000);
  let dir = '';
  const at = (name: string): string => path.join(dir, name);
  /** The temp folder stands for the workspace: every check runs with the real-place check on. */
  const here = (): SourcePlace => ({ roots: [dir] });

  // The shared documents every test may use, made once; each test writes its own oddities next to them.
  before(async function () {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hr-finetune-files-'));
    await writePdf(at('guide.pdf'), PARAGRAPHS);
    await writeDocx(at('policy.docx'), PARAGRAPHS);
    writeFileSync(at('notes.pdf'), 'Meeting notes\nNothing PDF about this.\n');
    writeFileSync(at('empty.pdf'), '');
    writeFileSync(
      at('archive.docx'),
      storedZip([
        { name: 'readme.txt', data: Buffer.from('hello') },
        { name: 'word/other.xml', data: Buffer.from('<x/>') },
      ]),
    );
  });
  after(function () {
    rmSync(dir, { recursive: true, force: true });
  });

  it('accepts a real PDF and a real DOCX, with their kinds and sizes', async () => {
    const check = await checkFinetuneFiles([at('guide.pdf'), at('policy.docx')], LIMITS, here());
    assert.deepEqual(check.problems, []);
    assert.deepEqual(
      check.valid.map((f) => [f.label, f.kind, f.size]),
      [
        ['guide.pdf', 'pdf', statSync(at('guide.pdf')).size],
        ['policy.docx', 'docx', statSync(at('policy.docx')).size],
      ],
    );
  });

  it('accepts upper-case extensions', async () => {
    await writePdf(at('UPPER.PDF'), PARAGRAPHS);
    await writeDocx(at('UPPER.DOCX'), PARAGRAPHS);
    const check = await checkFinetuneFiles([at('UPPER.PDF'), at('UPPER.DOCX')], LIMITS, here());
    assert.deepEqual(check.problems, []);
    assert.deepEqual(
      check.valid.map((f) => f.kind),
      ['pdf', 'docx'],
    );
  });

  it('refuses a renamed .txt, naming it and saying it looks like text', async () => {
    writeFileSync(at('notes.docx'), 'Meeting notes, UTF-8: café, 東京\n');
    const check = await checkFinetuneFiles([at('notes.pdf'), at('notes.docx')], LIMITS, here());
    assert.deepEqual(check.valid, []);
    assert.deepEqual(
      check.problems.map((p) => p.message),
      ['notes.pdf is not a PDF file (it looks like text).', 'notes.docx is not a DOCX file (it looks like text).'],
    );
    assert.deepEqual(
      check.problems.map((p) => [p.code, p.label]),
      [
        ['wrongContent', 'notes.pdf'],
        ['wrongContent', 'notes.docx'],
      ],
    );
  });

  it('tolerates a few junk bytes before %PDF- within the first 1024 bytes, but not later', async () => {
    const pdf = readFileSync(at('guide.pdf'));
    writeFileSync(at('bom.pdf'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('junk\r\n'), pdf]));
    writeFileSync(at('late.pdf'), Buffer.concat([Buffer.alloc(1100, 0x20), pdf]));
    const check = await checkFinetuneFiles([at('bom.pdf'), at('late.pdf')], LIMITS, here());
    assert.deepEqual(
      check.valid.map((f) => f.label),
      ['bom.pdf'],
    );
    assert.deepEqual(
      check.problems.map((p) => p.message),
      ['late.pdf is not a PDF file (it looks like text).'],
    );
  });

  it('refuses a ZIP that is not a DOCX, and says what is missing', async () => {
    const check = await checkFinetuneFiles([at('archive.docx')], LIMITS, here());
    assert.deepEqual(check.valid, []);
    assert.deepEqual(
      check.problems.map((p) => p.message),
      ['archive.docx is not a DOCX file (it is a ZIP archive without word/document.xml).'],
    );
  });

  it('accepts a minimal ZIP that has word/document.xml, even behind an archive comment', async () => {
    writeFileSync(
      at('minimal.docx'),
      storedZip(
        [{ name: 'word/document.xml', data: Buffer.from('<w:document/>') }],
        `comment with a fake end record: PK\x05\x06${'\0'.repeat(30)}`,
      ),
    );
    const check = await checkFinetuneFiles([at('minimal.docx')], LIMITS, here());
    assert.deepEqual(check.problems, []);
    assert.equal(check.valid[0]?.kind, 'docx');
  });

  it('refuses a truncated DOCX (its central directory is gone)', async () => {
    const docx = readFileSync(at('policy.docx'));
    writeFileSync(at('cut.docx'), docx);
    truncateSync(at('cut.docx'), Math.floor(docx.length / 2));
    const check = await checkFinetuneFiles([at('cut.docx')], LIMITS, here());
    assert.equal(check.problems.length, 1);
    assert.match(check.problems[0]?.message ?? '', /^cut\.docx is not a DOCX file \(its ZIP structure is damaged: /);
  });

  it('tells a DOCX named .pdf and a PDF named .docx apart, with the rename that fixes them', async () => {
    writeFileSync(at('really-docx.pdf'), readFileSync(at('policy.docx')));
    writeFileSync(at('really-pdf.docx'), readFileSync(at('guide.pdf')));
    const check = await checkFinetuneFiles([at('really-docx.pdf'), at('really-pdf.docx')], LIMITS, here());
    assert.deepEqual(
      check.problems.map((p) => p.message),
      [
        'really-docx.pdf is not a PDF file (it looks like a DOCX document; rename it to .docx).',
        'really-pdf.docx is not a DOCX file (it looks like a PDF document; rename it to .pdf).',
      ],
    );
  });

  it('names other kinds it recognises (an image, an old .doc)', async () => {
    writeFileSync(at('photo.pdf'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]));
    writeFileSync(at('old.docx'), Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]));
    const check = await checkFinetuneFiles([at('photo.pdf'), at('old.docx')], LIMITS, here());
    assert.deepEqual(
      check.problems.map((p) => p.message),
      [
        'photo.pdf is not a PDF file (it looks like a PNG image).',
        'old.docx is not a DOCX file (it looks like an older Office document (.doc); save it as .docx).',
      ],
    );
  });

  it('refuses an empty file', async () => {
    const check = await checkFinetuneFiles([at('empty.pdf')], LIMITS, here());
    assert.deepEqual(
      check.problems.map((p) => [p.code, p.message]),
      [['empty', 'empty.pdf is empty.']],
    );
  });

  it('refuses a file above maxFileBytes, with both sizes, and accepts one exactly at the limit', async () => {
    const size = statSync(at('guide.pdf')).size;
    writeFileSync(at('exact.pdf'), readFileSync(at('guide.pdf')));
    writeFileSync(at('big.pdf'), Buffer.concat([readFileSync(at('guide.pdf')), Buffer.alloc(1)]));
    const check = await checkFinetuneFiles([at('exact.pdf'), at('big.pdf')], { maxFileBytes: size, maxFiles: 10 }, here());
    assert.deepEqual(
      check.valid.map((f) => f.label),
      ['exact.pdf'],
    );
    assert.deepEqual(
      check.problems.map((p) => [p.code, p.message]),
      [['tooLarge', `big.pdf is ${formatOverLimit(size + 1, size).size}; the limit is ${formatOverLimit(size + 1, size).limit}.`]],
    );
  });

  it('says a file one byte over 512 MB is 512.1 MB, in the unit of the limit', async () => {
    // Sparse: 512 MB on paper, nothing on disk; the size check refuses it before reading a byte.
    writeFileSync(at('report.pdf'), '');
    truncateSync(at('report.pdf'), 512 * 1024 * 1024 + 1);
    const check = await checkFinetuneFiles([at('report.pdf')], LIMITS, here());
    assert.deepEqual(
      check.problems.map((p) => [p.code, p.message]),
      [['tooLarge', 'report.pdf is 512.1 MB; the limit is 512 MB.']],
    );
  });

  it('refuses other extensions, missing files and folders, each by name', async () => {
    writeFileSync(at('notes.txt'), 'plain text');
    mkdirSync(at('folder.pdf'), { recursive: true });
    const check = await checkFinetuneFiles([at('notes.txt'), at('gone.pdf'), at('folder.pdf')], LIMITS, here());
    assert.deepEqual(check.valid, []);
    assert.deepEqual(
      check.problems.map((p) => p.message),
      ['notes.txt is not a PDF or DOCX file.', 'gone.pdf cannot be read (it no longer exists).', 'folder.pdf is not a file.'],
    );
  });

  it('refuses a symbolic link to a real PDF outside, naming the link, and reads none of its target', async function () {
    if (process.platform === 'win32') this.skip(); // links need privileges there
    const outside = mkdtempSync(path.join(os.tmpdir(), 'hr-outside-'));
    try {
      writeFileSync(path.join(outside, 'private.pdf'), readFileSync(at('guide.pdf')));
      symlinkSync(path.join(outside, 'private.pdf'), at('linked.pdf'));
      const reader = countingReader();
      const check = await checkFinetuneFiles([{ id: at('linked.pdf'), label: 'docs/linked.pdf' }], LIMITS, here(), reader);
      assert.deepEqual(check.valid, []);
      assert.deepEqual(
        check.problems.map((p) => [p.code, p.message]),
        [['symlink', 'docs/linked.pdf is a symbolic link, which is not followed; choose the file it points to instead.']],
      );
      assert.equal(reader.bytes, 0);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses a file reached through a linked folder that leads out of the workspace, naming it, reading none of it', async function () {
    if (process.platform === 'win32') this.skip(); // links need privileges there
    const outside = mkdtempSync(path.join(os.tmpdir(), 'hr-outside-'));
    try {
      writeFileSync(path.join(outside, 'secret.pdf'), readFileSync(at('guide.pdf')));
      symlinkSync(outside, at('docs-link'));
      const reader = countingReader();
      const check = await checkFinetuneFiles([{ id: at('docs-link/secret.pdf'), label: 'docs-link/secret.pdf' }], LIMITS, here(), reader);
      assert.deepEqual(check.valid, []);
      assert.deepEqual(
        check.problems.map((p) => [p.code, p.message]),
        [['outsideWorkspace', outsideMessage('docs-link/secret.pdf')]],
      );
      assert.equal(reader.bytes, 0);
    } finally {
      rmSync(at('docs-link'), { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses a workspace file with another name (a hard link, maybe to a file outside), naming it; one named outside by its own path is taken', async function () {
    if (process.platform === 'win32') this.skip(); // ln without privileges differs there
    const outside = mkdtempSync(path.join(os.tmpdir(), 'hr-outside-'));
    try {
      writeFileSync(path.join(outside, 'private.pdf'), readFileSync(at('guide.pdf')));
      linkSync(path.join(outside, 'private.pdf'), at('hard.pdf'));
      const reader = countingReader();
      const check = await checkFinetuneFiles([{ id: at('hard.pdf'), label: 'docs/hard.pdf' }], LIMITS, here(), reader);
      assert.deepEqual(check.valid, []);
      assert.deepEqual(
        check.problems.map((p) => [p.code, p.message]),
        [['hardLink', `docs/hard.pdf cannot be used: ${HARD_LINK_REASON}`]],
      );
      assert.equal(reader.bytes, 0);
      // Chosen in the Open dialog by its own path outside the workspace: no workspace boundary to keep, so taken.
      const chosen = await checkFinetuneFiles([path.join(outside, 'private.pdf')], LIMITS, { ...here(), outsideAllowed: true });
      assert.deepEqual(chosen.problems, []);
      assert.equal(chosen.valid[0]?.within, undefined);
      // A workspace file carries its folders to the upload, which checks them again on the opened file.
      const plain = await checkFinetuneFiles([at('guide.pdf')], LIMITS, here());
      assert.deepEqual(plain.valid[0]?.within, [dir]);
    } finally {
      rmSync(at('hard.pdf'), { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('refuses a FIFO named .pdf as not a regular file, without opening it (which would wait for a writer)', async function () {
    if (process.platform === 'win32') this.skip();
    execFileSync('mkfifo', [at('pipe.pdf')]);
    const check = await checkFinetuneFiles([at('pipe.pdf')], LIMITS, here());
    assert.deepEqual(
      check.problems.map((p) => [p.code, p.message]),
      [['notFile', 'pipe.pdf is not a regular file (it is a named pipe).']],
    );
  });

  it('removes duplicates, including another spelling of the same path', async () => {
    // Not path.join: it would normalise the spelling away before the code under test sees it.
    const spelled = [dir, 'sub', '..', '.', 'guide.pdf'].join(path.sep);
    const check = await checkFinetuneFiles([at('guide.pdf'), at('policy.docx'), at('guide.pdf'), spelled], LIMITS, here());
    assert.deepEqual(
      check.valid.map((f) => f.label),
      ['guide.pdf', 'policy.docx'],
    );
    assert.equal(check.duplicates, 2);
    assert.deepEqual(check.problems, []);
  });

  it('keeps at most maxFiles valid files and names each one left out', async () => {
    for (const n of ['a', 'b', 'c', 'd']) writeFileSync(at(`${n}.pdf`), readFileSync(at('guide.pdf')));
    const check = await checkFinetuneFiles(
      ['a', 'b', 'c', 'd'].map((n) => at(`${n}.pdf`)),
      { ...LIMITS, maxFiles: 2 },
      here(),
    );
    assert.deepEqual(
      check.valid.map((f) => f.label),
      ['a.pdf', 'b.pdf'],
    );
    assert.deepEqual(
      check.problems.map((p) => [p.code, p.message]),
      [
        ['tooMany', 'c.pdf is left out: at most 2 files can be used in one job.'],
        ['tooMany', 'd.pdf is left out: at most 2 files can be used in one job.'],
      ],
    );
  });

  it('reports every problem of a mixed selection at once, in the order chosen, and keeps the good files', async () => {
    const check = await checkFinetuneFiles(
      [at('notes.pdf'), at('guide.pdf'), at('empty.pdf'), at('archive.docx'), at('policy.docx'), at('gone.pdf')],
      LIMITS,
      here(),
    );
    assert.deepEqual(
      check.valid.map((f) => f.label),
      ['guide.pdf', 'policy.docx'],
    );
    assert.deepEqual(
      check.problems.map((p) => p.label),
      ['notes.pdf', 'empty.pdf', 'archive.docx', 'gone.pdf'],
    );
  });

  it('names files by the label given (a workspace-relative path), not the path it reads', async () => {
    const check = await checkFinetuneFiles([{ id: at('notes.pdf'), label: 'docs/meetings/notes.pdf' }], LIMITS, here());
    assert.deepEqual(
      check.problems.map((p) => p.message),
      ['docs/meetings/notes.pdf is not a PDF file (it looks like text).'],
    );
  });

  it('reads through an injected reader (as for a virtual workspace)', async () => {
    const files = new Map<string, Buffer>([
      ['mem:/a.pdf', readFileSync(at('guide.pdf'))],
      ['mem:/b.docx', Buffer.from('not a zip')],
    ]);
    const reader: ByteReader = {
      localPath: () => undefined, // virtual: no real path to check
      stat: async (id) => {
        const b = files.get(id);
        if (!b) throw Object.assign(new Error('missing'), { code: 'ENOENT' });
        return { size: b.length, isFile: true };
      },
      read: async (id, position, length) => (files.get(id) ?? Buffer.alloc(0)).subarray(position, position + length),
    };
    const check = await checkFinetuneFiles(
      [
        { id: 'mem:/a.pdf', label: 'a.pdf' },
        { id: 'mem:/b.docx', label: 'b.docx' },
        { id: 'mem:/c.pdf', label: 'c.pdf' },
      ],
      LIMITS,
      here(),
      reader,
    );
    assert.deepEqual(
      check.valid.map((f) => f.id),
      ['mem:/a.pdf'],
    );
    assert.deepEqual(
      check.problems.map((p) => p.message),
      ['b.docx is not a DOCX file (it looks like text).', 'c.pdf cannot be read (it no longer exists).'],
    );
  });

  it('checks a large DOCX by its head and central directory only, not by reading it whole', async () => {
    const filler = Buffer.alloc(4 * 1024 * 1024, 0x41);
    writeFileSync(
      at('large.docx'),
      storedZip([
        { name: 'word/media/big.bin', data: filler },
        { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
      ]),
    );
    const reader = countingReader();
    const check = await checkFinetuneFiles([at('large.docx')], LIMITS, here(), reader);
    assert.deepEqual(check.problems, []);
    assert.ok(reader.bytes < 100 * 1024, `read ${reader.bytes} bytes of ${statSync(at('large.docx')).size}`);
  });
});

describe('ZIP central directory reader', () => {
  const readerOf = (buf: Buffer) => async (position: number, length: number) => buf.subarray(position, position + length);

  it('lists entry names in order', async () => {
    const zip = storedZip([
      { name: '[Content_Types].xml', data: Buffer.from('x') },
      { name: 'word/document.xml', data: Buffer.from('y') },
    ]);
    assert.deepEqual(await readZipEntryNames(zip.length, readerOf(zip)), ['[Content_Types].xml', 'word/document.xml']);
  });

  it("gives each entry's sizes as its directory declares them, a ZIP64 extra field's too (the pre-flight refuses a bomb by them)", async () => {
    const zip = storedZip([
      { name: 'word/document.xml', data: Buffer.from('abc') },
      { name: 'word/big.xml', data: Buffer.from('de') },
    ]);
    const cd = zip.length - 22 - (46 + 'word/big.xml'.length);
    // The second entry claims 5 GB uncompressed through ZIP64: its 32-bit field saturated, the real size in extra field 1.
    zip.writeUInt32LE(0xffffffff, cd + 24);
    const extra = Buffer.alloc(12);
    extra.writeUInt16LE(1, 0);
    extra.writeUInt16LE(8, 2);
    extra.writeBigUInt64LE(5n * 2n ** 30n, 4);
    zip.writeUInt16LE(extra.length, cd + 30);
    const withExtra = Buffer.concat([zip.subarray(0, zip.length - 22), extra, zip.subarray(zip.length - 22)]);
    withExtra.writeUInt32LE(withExtra.readUInt32LE(withExtra.length - 22 + 12) + extra.length, withExtra.length - 22 + 12);
    assert.deepEqual(await readZipEntries(withExtra.length, readerOf(withExtra)), [
      { name: 'word/document.xml', compressedSize: 3, uncompressedSize: 3 },
      { name: 'word/big.xml', compressedSize: 2, uncompressedSize: 5 * 2 ** 30 },
    ]);
  });

  it('throws ZipFormatError on a file with no end record, and on a directory pointing outside the file', async () => {
    const junk = Buffer.alloc(100, 0x20);
    await assert.rejects(readZipEntryNames(junk.length, readerOf(junk)), ZipFormatError);
    const zip = storedZip([{ name: 'a', data: Buffer.from('1') }]);
    zip.writeUInt32LE(0xfffff, zip.length - 22 + 16); // central directory offset beyond the end
    await assert.rejects(readZipEntryNames(zip.length, readerOf(zip)), /outside the file/);
  });
});

describe('sniffing and byte sizes', () => {
  it('calls binary data binary and text text', () => {
    assert.deepEqual(sniff(Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe])), { kind: 'other', looksLike: 'binary data of an unknown kind' });
    assert.deepEqual(sniff(Buffer.from('<!DOCTYPE html><html></html>')), { kind: 'other', looksLike: 'an HTML page' });
    // A head cut inside a multi-byte character is still text.
    assert.deepEqual(sniff(Buffer.from('naïve €').subarray(0, 9)), { kind: 'other', looksLike: 'text' });
  });

  it('formats sizes and transfers in the units of the setting (1 MB = 1024 * 1024 bytes)', () => {
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(512 * 1024 * 1024), '512 MB');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatTransfer(12.3 * 1024 * 1024, 45.6 * 1024 * 1024), '12.3 of 45.6 MB');
  });

  it('formats a size over a limit so the two never read as equal, both in the unit of the limit', () => {
    const MB = 1024 * 1024;
    assert.deepEqual(formatOverLimit(512 * MB + 1, 512 * MB), { size: '512.1 MB', limit: '512 MB' });
    assert.deepEqual(formatOverLimit(513 * MB, 512 * MB), { size: '513 MB', limit: '512 MB' });
    assert.deepEqual(formatOverLimit(3 * 1024 * MB, 512 * MB), { size: '3072 MB', limit: '512 MB' });
    assert.deepEqual(formatOverLimit(1.1 * MB + 1, 1.1 * MB), { size: '1.2 MB', limit: '1.1 MB' });
    assert.deepEqual(formatOverLimit(1025, 1024), { size: '1.1 KB', limit: '1 KB' });
  });
});
