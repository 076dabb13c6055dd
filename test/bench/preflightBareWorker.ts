// Figure 12's reference: pdfjs-dist reading every page's text of the given PDFs in a bare Node worker thread, nothing
// else (no hash, no word count, no message per file), with the same pdfjs options. workerData: { paths }; posts the total page count.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type * as Pdfjs from 'pdfjs-dist';

const requireHere = createRequire(__filename);

async function main(paths: string[]): Promise<number> {
  const lib = requireHere('pdfjs-dist/legacy/build/pdf.mjs') as typeof Pdfjs;
  // The options the pre-flight read gives: the standard fonts' data, so both map the same glyphs to text.
  const standardFontDataUrl = join(dirname(requireHere.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
  let pages = 0;
  for (const p of paths) {
    const data = await readFile(p);
    const task = lib.getDocument({
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      isEvalSupported: false,
      verbosity: 0,
      standardFontDataUrl,
    });
    const doc = await task.promise;
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      await page.getTextContent();
      page.cleanup();
    }
    pages += doc.numPages;
    await task.destroy();
  }
  return pages;
}

void main((workerData as { paths: string[] }).paths).then((pages) => parentPort?.postMessage(pages));
