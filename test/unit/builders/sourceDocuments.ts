// Source documents the emulator's fixtures (test/service/fixtures.ts) do not write, for the pre-flight tests: a PDF
// encrypted with a password, a DOCX that holds only a table, a PDF of many text pages written by hand (fast), and a
// CJK PDF whose font needs one of pdfjs's predefined CMaps.
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { writeFile } from 'node:fs/promises';

/** A PDF from its objects' bodies (object 1 the catalog), with an exact cross-reference table. */
function pdfOf(objects: string[], trailerExtra = ''): Buffer {
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** `pages` pages, each with `linesPerPage` lines of the given text. */
export async function writeTextPagesPdf(
  path: string,
  pages: number,
  line = 'The travel policy covers trains, flights and hotels.',
  linesPerPage = 10,
): Promise<void> {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  const kids: string[] = [];
  const content = ['BT', '/F1 12 Tf', '16 TL', '72 720 Td', ...Array.from({ length: linesPerPage }, () => `(${line}) Tj T*`), 'ET'].join(
    '\n',
  );
  for (let p = 0; p < pages; p++) {
    const id = objects.length + 1;
    kids.push(`${id} 0 R`);
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${id + 1} 0 R >>`);
    objects.push(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages} >>`;
  await writeFile(path, pdfOf(objects));
}

/**
 * A PDF under the standard security handler whose user password is not empty: pdfjs asks for a password, as it does for
 * any document locked to open (the /O and /U values match no password we know).
 */
export async function writePasswordPdf(path: string): Promise<void> {
  const content = 'BT /F1 12 Tf 72 720 Td (secret) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`,
  ];
  await writeFile(path, pdfOf(objects, `/Encrypt 5 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>] `));
}

/**
 * A PDF whose text is CJK shown as 2-byte UCS-2 codes in a Type0 font encoded by a predefined CMap (`UniJIS-UCS2-H`)
 * over a non-embedded Adobe-Japan1 CIDFont, as many Japanese PDFs are made: no /ToUnicode, no FontFile. A reader
 * needs the CMap's data (pdfjs's bcmap files) to turn the codes into CIDs and so into text.
 */
export async function writeCjkPdf(path: string, lines: readonly string[]): Promise<void> {
  const hex = (line: string): string => [...line].map((c) => c.codePointAt(0)!.toString(16).padStart(4, '0')).join('');
  // One line each (a line wider than the page would be cut: pdfjs leaves out glyphs beyond its edge).
  const content = ['BT', '/F1 12 Tf', '16 TL', '72 720 Td', ...lines.map((line) => `<${hex(line)}> Tj T*`), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /KozMinPro-Regular-UniJIS-UCS2-H /Encoding /UniJIS-UCS2-H /DescendantFonts [6 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /KozMinPro-Regular /CIDSystemInfo << /Registry (Adobe) /Ordering (Japan1) /Supplement 4 >> /FontDescriptor 7 0 R /DW 1000 >>',
    '<< /Type /FontDescriptor /FontName /KozMinPro-Regular /Flags 4 /FontBBox [-195 -272 1110 1075] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 740 /StemV 86 >>',
  ];
  await writeFile(path, pdfOf(objects));
}

/** A DOCX whose body is one table (no paragraph outside it), each cell one sentence. */
export async function writeTableOnlyDocx(path: string, rows: string[][]): Promise<void> {
  const table = new Table({
    rows: rows.map(
      (cells) => new TableRow({ children: cells.map((c) => new TableCell({ children: [new Paragraph({ children: [new TextRun(c)] })] })) }),
    ),
  });
  await writeFile(path, await Packer.toBuffer(new Document({ sections: [{ children: [table] }] })));
}
