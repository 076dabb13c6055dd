// The worker thread in which the emulator reads PDFs' text with pdfjs-dist (see extractPdf in documents.ts for why a
// worker, shared by every emulator of the process; the caller also bounds its time): receives `{ id, path }` messages,
// posts back `{ id, extraction }` or `{ id, error }`.
import { open, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';
import type * as Pdfjs from 'pdfjs-dist';
import { LARGE_FILE_BYTES, type Extraction } from './documents';

/** Pages read from a large PDF. */
const LARGE_PDF_PAGES = 3;
/** Pages read from a normal PDF (a bound for pathological page counts). */
const MAX_PDF_PAGES = 500;

// pdfjs-dist v5 ships ESM only; Node 20.19+ can require() it, and the legacy build is the one meant for Node.
const requireHere = createRequire(__filename);
type PdfjsModule = typeof Pdfjs;
let pdfjsModule: PdfjsModule | undefined;
function pdfjs(): PdfjsModule {
  pdfjsModule ??= requireHere('pdfjs-dist/legacy/build/pdf.mjs') as PdfjsModule;
  return pdfjsModule;
}
function standardFontDataUrl(): string {
  return join(dirname(requireHere.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';
}

async function extractPdf(path: string): Promise<Extraction> {
  const lib = pdfjs();
  const { size } = await stat(path);
  const large = size > LARGE_FILE_BYTES;
  const common = {
    standardFontDataUrl: standardFontDataUrl(),
    isEvalSupported: false,
    verbosity: 0, // errors only: font warnings on stderr would clutter test output
  };
  let task: Pdfjs.PDFDocumentLoadingTask;
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  if (large) {
    // Range transport: pdfjs asks for the byte ranges it needs (trailer, xref, first pages) and we read just those.
    fh = await open(path, 'r');
    const handle = fh;
    const transport = new lib.PDFDataRangeTransport(size, null);
    transport.requestDataRange = (begin: number, end: number): void => {
      const chunk = Buffer.alloc(end - begin);
      handle.read(chunk, 0, end - begin, begin).then(
        ({ bytesRead }) => transport.onDataRange(begin, new Uint8Array(chunk.buffer, chunk.byteOffset, bytesRead)),
        () => transport.abort(),
      );
    };
    task = lib.getDocument({
      ...common,
      range: transport,
      length: size,
      disableAutoFetch: true,
      disableStream: true,
      rangeChunkSize: 256 * 1024,
    });
  } else {
    const data = await readFile(path);
    task = lib.getDocument({ ...common, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
  }
  try {
    const doc = await task.promise;
    const pages = Math.min(doc.numPages, large ? LARGE_PDF_PAGES : MAX_PDF_PAGES);
    const parts: string[] = [];
    for (let p = 1; p <= pages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      const line = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
      parts.push(line);
      page.cleanup();
    }
    return {
      text: parts
        .join('\n')
        .replace(/[ \t]+/g, ' ')
        .trim(),
      partial: large && doc.numPages > pages,
      pages: doc.numPages,
    };
  } finally {
    await task.destroy().catch(() => undefined);
    await fh?.close().catch(() => undefined);
  }
}

if (parentPort) {
  const port = parentPort;
  port.on('message', ({ id, path }: { id: number; path: string }) => {
    extractPdf(path).then(
      (extraction) => port.postMessage({ id, extraction }),
      (error: unknown) => port.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
