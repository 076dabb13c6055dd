// The entries of a ZIP archive, read from its central directory with ranged reads: a DOCX check needs to know whether
// `word/document.xml` is inside, and a 500 MB document must not be loaded to learn that; the pre-flight read needs each
// entry's declared uncompressed size, to refuse a decompression bomb before anything inflates it.
//
// Why not a library: yauzl & co. would be a runtime dependency (bundled into the extension) for one question, and the
// part of the format needed here is small and frozen (APPNOTE 4.3.12-4.3.16 plus the ZIP64 end record). No
// decompression happens here. Pure Node-free logic: it only sees a `read(position, length)` callback.

/** Reads `length` bytes at `position` (fewer only at the end of the file). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ZipFormatError';
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const ZIP64_LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIGNATURE = 0x06064b50;
const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
const CENTRAL_HEADER_SIZE = 46;
/** The archive comment is at most 0xffff bytes, so the end record is within this many bytes of the end. */
const TAIL_BYTES = EOCD_SIZE + 0xffff + ZIP64_LOCATOR_SIZE;
/** A central directory above this is not a document a person picked for finetuning: refuse rather than allocate. */
const MAX_CENTRAL_DIRECTORY_BYTES = 64 * 1024 * 1024;
const MAX_ENTRIES = 200_000;

export interface ZipEntry {
  name: string;
  /** Bytes in the archive. */
  compressedSize: number;
  /** Bytes once inflated, as the directory declares it: a hostile archive may lie, so this is a claim, not a bound. */
  uncompressedSize: number;
}

/** Names of all entries, in directory order. Throws ZipFormatError when the archive's structure cannot be read. */
export async function readZipEntryNames(size: number, readAt: ReadAt): Promise<string[]> {
  return (await readZipEntries(size, readAt)).map((e) => e.name);
}

/** All entries, in directory order. Throws ZipFormatError when the archive's structure cannot be read. */
export async function readZipEntries(size: number, readAt: ReadAt): Promise<ZipEntry[]> {
  if (size < EOCD_SIZE) throw new ZipFormatError('too short to be a ZIP archive');
  const tailLength = Math.min(size, TAIL_BYTES);
  const tailStart = size - tailLength;
  const tail = await readExactly(readAt, tailStart, tailLength);

  // The archive comment may itself contain the signature bytes: a real end record is the one whose comment length
  // reaches exactly the end of the file. Failing that (junk appended after the archive), the last signature found.
  let eocd = -1;
  let loose = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD_SIGNATURE) continue;
    if (i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length) {
      eocd = i;
      break;
    }
    if (loose < 0) loose = i;
  }
  if (eocd < 0) eocd = loose;
  if (eocd < 0) throw new ZipFormatError('no end of central directory (the file may be truncated)');

  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  const saturated = count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff;
  const locator = eocd - ZIP64_LOCATOR_SIZE;
  if (saturated && locator >= 0 && tail.readUInt32LE(locator) === ZIP64_LOCATOR_SIGNATURE) {
    // ZIP64: the 16/32-bit fields are placeholders; the real values live in the ZIP64 end record.
    const recordOffset = Number(tail.readBigUInt64LE(locator + 8));
    if (recordOffset + 56 > size) throw new ZipFormatError('ZIP64 end record lies outside the file');
    const record = await readExactly(readAt, recordOffset, 56);
    if (record.readUInt32LE(0) !== ZIP64_EOCD_SIGNATURE) throw new ZipFormatError('ZIP64 end record not found');
    count = Number(record.readBigUInt64LE(32));
    cdSize = Number(record.readBigUInt64LE(40));
    cdOffset = Number(record.readBigUInt64LE(48));
  }
  if (count > MAX_ENTRIES) throw new ZipFormatError(`too many entries (${count})`);
  if (cdSize > MAX_CENTRAL_DIRECTORY_BYTES) throw new ZipFormatError('central directory is implausibly large');
  if (cdOffset + cdSize > size) throw new ZipFormatError('central directory lies outside the file');

  // Most documents' directories sit inside the tail already read; only a huge one costs a second read.
  const cd =
    cdOffset >= tailStart && cdOffset + cdSize <= size
      ? tail.subarray(cdOffset - tailStart, cdOffset - tailStart + cdSize)
      : await readExactly(readAt, cdOffset, cdSize);

  const entries: ZipEntry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + CENTRAL_HEADER_SIZE > cd.length || cd.readUInt32LE(p) !== CENTRAL_HEADER_SIGNATURE) {
      throw new ZipFormatError(`central directory entry ${i + 1} of ${count} is damaged`);
    }
    const flags = cd.readUInt16LE(p + 8);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    const nameEnd = p + CENTRAL_HEADER_SIZE + nameLength;
    if (nameEnd > cd.length) throw new ZipFormatError(`central directory entry ${i + 1} of ${count} is damaged`);
    if (nameEnd + extraLength > cd.length) throw new ZipFormatError(`central directory entry ${i + 1} of ${count} is damaged`);
    // Bit 11: UTF-8 names. Otherwise CP437, which agrees with latin1 on the ASCII names OOXML uses.
    const name = cd.toString(flags & 0x800 ? 'utf8' : 'latin1', p + CENTRAL_HEADER_SIZE, nameEnd);
    const sizes = entrySizes(cd.readUInt32LE(p + 24), cd.readUInt32LE(p + 20), cd.subarray(nameEnd, nameEnd + extraLength));
    entries.push({ name, ...sizes });
    p = nameEnd + extraLength + commentLength;
  }
  return entries;
}

/**
 * An entry's sizes: a 32-bit field saturated at 0xffffffff holds its real value in the ZIP64 extra field (id 1), which
 * lists only the saturated ones, uncompressed first (APPNOTE 4.5.3).
 */
function entrySizes(uncompressed: number, compressed: number, extra: Buffer): { compressedSize: number; uncompressedSize: number } {
  let uncompressedSize = uncompressed;
  let compressedSize = compressed;
  for (let q = 0; q + 4 <= extra.length;) {
    const id = extra.readUInt16LE(q);
    const length = extra.readUInt16LE(q + 2);
    if (id === 1) {
      let f = q + 4;
      const end = Math.min(extra.length, f + length);
      if (uncompressed === 0xffffffff && f + 8 <= end) {
        uncompressedSize = Number(extra.readBigUInt64LE(f));
        f += 8;
      }
      if (compressed === 0xffffffff && f + 8 <= end) compressedSize = Number(extra.readBigUInt64LE(f));
      break;
    }
    q += 4 + length;
  }
  return { compressedSize, uncompressedSize };
}

async function readExactly(readAt: ReadAt, position: number, length: number): Promise<Buffer> {
  const buf = await readAt(position, length);
  if (buf.length < length) throw new ZipFormatError('the file ended early');
  return buf;
}
