// Decompression bombs for the pre-flight's memory bound (issue 35, finding 1): small files that inflate to a gigabyte
// when read. A PDF whose one page's content stream is Flate of NUL bytes (whitespace to a PDF lexer, so pdfjs decodes it
// all and finds no text), and a DOCX whose word/document.xml is padded with spaces, its ZIP directory telling the truth
// or lying (declaring a few KB). Cheap to make: one chunk of padding is deflated once, ending on a full flush (no later
// block refers back past it, and it ends on a byte boundary), and its bytes are repeated; only the checksums read the
// whole padding, with node:zlib's crc32.
import { writeFile } from 'node:fs/promises';
import { constants, crc32, deflateRawSync } from 'node:zlib';

const CHUNK = 16 * 1024 * 1024;

interface Deflated {
  /** Raw deflate blocks, the last one final. */
  data: Buffer;
  /** What they inflate to: its size, CRC-32 (ZIP) and Adler-32 (zlib, PDF). */
  size: number;
  crc: number;
  adler: number;
}

/** Deflates `prefix`, then `padding` bytes of `fill`, then `suffix`, never holding the padding whole. */
function deflatePadded(prefix: Buffer, padding: number, fill: number, suffix: Buffer): Deflated {
  const flushed = (b: Buffer): Buffer => deflateRawSync(b, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const chunk = Buffer.alloc(Math.min(CHUNK, padding), fill);
  const parts = [flushed(prefix)];
  let crc = crc32(prefix);
  let a = 1;
  let b = 0;
  const adler = (bytes: Buffer): void => {
    for (const x of bytes) {
      a = (a + x) % 65521;
      b = (b + a) % 65521;
    }
  };
  adler(prefix);
  if (padding > 0) {
    const whole = flushed(chunk);
    for (let left = padding; left > 0; left -= chunk.length) {
      const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
      parts.push(part === chunk ? whole : flushed(part));
      crc = crc32(part, crc);
    }
    // Adler-32 over `padding` bytes of one value, in closed form: a grows by fill each byte, b by each new a.
    const n = BigInt(padding);
    const [A, F] = [BigInt(a), BigInt(fill)];
    b = Number((BigInt(b) + n * A + F * ((n * (n + 1n)) / 2n)) % 65521n);
    a = Number((A + n * F) % 65521n);
  }
  parts.push(deflateRawSync(suffix, { level: 9 }));
  crc = crc32(suffix, crc);
  adler(suffix);
  return { data: Buffer.concat(parts), size: prefix.length + padding + suffix.length, crc, adler: ((b << 16) | a) >>> 0 };
}

/** A one-page PDF whose content stream is Flate that inflates to `inflatedBytes` (about 1 MB on disk per GB). */
export async function writePdfBomb(path: string, inflatedBytes: number): Promise<void> {
  const raw = deflatePadded(Buffer.alloc(0), inflatedBytes, 0, Buffer.alloc(0));
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE(raw.adler);
  const data = Buffer.concat([Buffer.from([0x78, 0xda]), raw.data, trailer]);
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  const add = (object: Buffer[]): void => {
    offsets.push(length);
    for (const b of object) {
      parts.push(b);
      length += b.length;
    }
  };
  const text = (s: string): Buffer => Buffer.from(s, 'latin1');
  add([text('1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n')]);
  add([text('2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n')]);
  add([text('3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>\nendobj\n')]);
  add([text(`4 0 obj\n<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`), data, text('\nendstream\nendobj\n')]);
  const xref = length;
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(text(`xref\n0 5\n0000000000 65535 f \n${entries}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  await writeFile(path, Buffer.concat(parts));
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';
const DOCUMENT_HEAD =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Bomb</w:t></w:r></w:p>';
const DOCUMENT_TAIL = '</w:body></w:document>';

/**
 * A DOCX (a ZIP of deflated entries) whose word/document.xml inflates to `inflatedBytes`. With `lie`, its local headers
 * and central directory declare every entry 4 KB uncompressed, whatever it inflates to.
 */
export async function writeDocxBomb(path: string, inflatedBytes: number, { lie = false }: { lie?: boolean } = {}): Promise<void> {
  const padding = Math.max(0, inflatedBytes - DOCUMENT_HEAD.length - DOCUMENT_TAIL.length);
  const entries: ({ name: string } & Deflated)[] = [
    { name: '[Content_Types].xml', ...deflatePadded(Buffer.from(CONTENT_TYPES), 0, 0, Buffer.alloc(0)) },
    { name: '_rels/.rels', ...deflatePadded(Buffer.from(RELS), 0, 0, Buffer.alloc(0)) },
    { name: 'word/document.xml', ...deflatePadded(Buffer.from(DOCUMENT_HEAD), padding, 0x20, Buffer.from(DOCUMENT_TAIL)) },
  ];

  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const declared = lie ? 4096 : e.size;
    if (declared > 0xfffffffe) throw new Error('a ZIP64 bomb is not written here');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(e.crc >>> 0, 16);
    header.writeUInt32LE(e.data.length, 20);
    header.writeUInt32LE(declared, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    parts.push(local, name, e.data);
    offset += local.length + name.length + e.data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  await writeFile(path, Buffer.concat([...parts, cd, end]));
}

export const GB = 1024 * 1024 * 1024;
