// Real documents for tests, benchmarks and the demo: PDFs made with pdf-lib, DOCX with the docx package, and a
// large valid PDF written by hand in streaming fashion (a GB-sized benchmark file never sits in memory).
import { Document, Packer, Paragraph, TextRun } from 'docx';
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { PDFDocument, rgb, StandardFonts, type PDFFont } from 'pdf-lib';

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 72;
const FONT_SIZE = 12;
const LINE_HEIGHT = 16;

/** The standard Helvetica font only encodes WinAnsi: replace anything else (emoji, CJK) with '?'. */
function encodable(font: PDFFont, text: string): string {
  let out = '';
  for (const ch of text) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
}

function wrap(font: PDFFont, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && font.widthOfTextAtSize(candidate, FONT_SIZE) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line !== '') {
    lines.push(line);
  }
  return lines;
}

/** A text PDF: each paragraph wrapped to the page width, new pages as needed. pdfjs extracts the text back. */
export async function writePdf(path: string, paragraphs: string[]): Promise<void> {
  const doc = await PDFDocument.create();
  doc.setTitle('Emulator fixture');
  doc.setProducer('hosted-service emulator fixtures');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  let y = PAGE_HEIGHT - MARGIN;
  for (const paragraph of paragraphs) {
    for (const line of wrap(font, encodable(font, paragraph), PAGE_WIDTH - 2 * MARGIN)) {
      if (y < MARGIN) {
        page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
        y = PAGE_HEIGHT - MARGIN;
      }
      page.drawText(line, { x: MARGIN, y, size: FONT_SIZE, font });
      y -= LINE_HEIGHT;
    }
    y -= LINE_HEIGHT / 2;
  }
  await writeFile(path, await doc.save());
}

/** A valid PDF with no text at all (only a drawn shape), as a scanned document would look: extraction finds nothing. */
export async function writeTextlessPdf(path: string, pages = 1): Promise<void> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    page.drawRectangle({ x: MARGIN, y: MARGIN, width: 200, height: 100, color: rgb(0.2, 0.4, 0.8) });
  }
  await writeFile(path, await doc.save());
}

/** Starts like a PDF (passes the magic check) but is not one: extraction fails with a parse error. */
export async function writeBrokenPdf(path: string): Promise<void> {
  await writeFile(path, '%PDF-1.7\n% this is not really a PDF\n1 0 obj\n<< /Garbage\nendobj\n');
}

/** A DOCX (Office Open XML) with one paragraph per entry; mammoth extracts the text back. */
export async function writeDocx(path: string, paragraphs: string[]): Promise<void> {
  const doc = new Document({
    creator: 'hosted-service emulator fixtures',
    title: 'Emulator fixture',
    sections: [{ children: paragraphs.map((p) => new Paragraph({ children: [new TextRun(p)] })) }],
  });
  await writeFile(path, await Packer.toBuffer(doc));
}

function pdfString(text: string): string {
  // Literal string: escape the delimiters, keep Latin-1, replace the rest.
  return text.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

const DEFAULT_LARGE_TEXT = [
  'Benchmark document for the hosted finetuning service.',
  'The service extracts only the first pages of very large uploads.',
  'Everything after these pages is an unreferenced padding stream.',
];

/**
 * A valid PDF of exactly `bytes` bytes (or its minimal size, if larger): real text pages first, then one unreferenced
 * stream object full of filler, then the xref table and trailer. Written chunk by chunk with backpressure.
 */
export async function writeLargePdf(path: string, bytes: number, paragraphs: string[] = DEFAULT_LARGE_TEXT): Promise<void> {
  const linesPerPage = 40;
  const lines = paragraphs.flatMap((p) => p.match(/.{1,80}(\s|$)|\S+/g) ?? [p]);
  const pageLines: string[][] = [];
  for (let i = 0; i < Math.max(1, lines.length); i += linesPerPage) {
    pageLines.push(lines.slice(i, i + linesPerPage));
  }
  // Objects: 1 catalog, 2 pages, 3 font, then (page, contents) per page, then the padding stream.
  const objects: string[] = [];
  const pageIds = pageLines.map((_, i) => 4 + i * 2);
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (let i = 0; i < pageLines.length; i++) {
    const content = [
      'BT',
      `/F1 ${FONT_SIZE} Tf`,
      `${LINE_HEIGHT} TL`,
      `${MARGIN} ${PAGE_HEIGHT - MARGIN} Td`,
      ...pageLines[i]!.map((l) => `(${pdfString(l.trim())}) Tj T*`),
      'ET',
    ].join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  }
  const header = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  let prefix = header;
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(prefix, 'latin1'));
    prefix += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const paddingId = objects.length + 1;
  const prefixLen = Buffer.byteLength(prefix, 'latin1');
  const footerFor = (paddingLen: number): { head: string; tail: string } => {
    const head = `${paddingId} 0 obj\n<< /Length ${paddingLen} >>\nstream\n`;
    const xrefOffset = prefixLen + head.length + paddingLen + '\nendstream\nendobj\n'.length;
    const entries = [...offsets, prefixLen].map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    const tail = `\nendstream\nendobj\nxref\n0 ${paddingId + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${paddingId + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
    return { head, tail };
  };
  // The footer's length depends on the digits of the padding length: iterate to a fixed point.
  let paddingLen = 0;
  for (let i = 0; i < 5; i++) {
    const { head, tail } = footerFor(paddingLen);
    paddingLen = Math.max(0, bytes - prefixLen - head.length - tail.length);
  }
  const { head, tail } = footerFor(paddingLen);

  const out = createWriteStream(path);
  const write = (chunk: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      const onError = (err: Error): void => reject(err);
      out.once('error', onError);
      if (out.write(chunk)) {
        out.off('error', onError);
        resolve();
      } else {
        out.once('drain', () => {
          out.off('error', onError);
          resolve();
        });
      }
    });
  await write(Buffer.from(prefix + head, 'latin1'));
  // Filler: printable, line-broken text so the file stays friendly to tools that peek at it.
  const block = Buffer.alloc(1024 * 1024, 'emulator padding 0123456789abcdef\n');
  let left = paddingLen;
  while (left > 0) {
    const n = Math.min(block.length, left);
    await write(n === block.length ? block : block.subarray(0, n));
    left -= n;
  }
  await write(Buffer.from(tail, 'latin1'));
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}
