// What the service will read from one source file, read on this machine before anything is uploaded: the text of a
// PDF (pdfjs-dist, the library the service's own extraction is modelled on) or a DOCX (mammoth), its pages or
// paragraphs, its words, whether it is encrypted, and its SHA-256 (two files with the same bytes). Runs inside the
// pre-flight worker thread (sourceTextWorker.ts) of the reader's child process (preflightChild.ts, which bounds its
// memory): pdfjs installs browser globals (`navigator`, `DOMMatrix`) and would block the extension host for seconds on
// a long PDF. Both libraries are JavaScript: a workspace's file reaches no native code here, so the read needs no
// trusted workspace. pdfjs would load the optional native @napi-rs/canvas (for
// rendering, which text extraction does not use) wherever it finds it installed: this thread refuses it (noNativeCanvas).
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Pdfjs from 'pdfjs-dist';

export type SourceKind = 'pdf' | 'docx';

/** What one file holds, as the service would read it. */
export interface SourceText {
  kind: SourceKind;
  /** PDF only: the document's page count. */
  pages?: number;
  /** DOCX only: paragraphs (table cells included) holding text. */
  paragraphs?: number;
  words: number;
  /** PDF: an /Encrypt dictionary (with or without a password to open it). */
  encrypted: boolean;
  sha256: string;
  text: string;
  /** Only the first `MAX_PDF_PAGES` pages were read. */
  partial: boolean;
  /** Why the text could not be read, in words; the file stays uploadable. */
  unreadable?: string;
}

/** Pages read from one PDF: a pathological page count must not keep the review waiting. */
export const MAX_PDF_PAGES = 2000;

/** Scripts written without spaces between words: each character counts as a word, as word processors count them. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;

/**
 * Words of text as a person counts them: runs of letters and digits (with inner apostrophes, dots and hyphens), and
 * each Chinese or Japanese character; otherwise a page of Japanese would count a few "words" and look scanned.
 */
export function countWords(text: string): number {
  const unspaced = text.match(UNSPACED)?.length ?? 0;
  return unspaced + (text.replace(UNSPACED, ' ').match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu)?.length ?? 0);
}

// pdfjs-dist v5 is ESM only; Node 20.19+ can require() it. The packaged extension carries pdfjs's legacy (Node) build
// next to the worker in dist/pdfjs/ (esbuild.mjs copies it); the compiled tests take it from node_modules.
const requireHere = createRequire(__filename);
let pdfjsModule: typeof Pdfjs | undefined;
let fontsUrl = '';
let cMapsUrl = '';
function pdfjs(): typeof Pdfjs {
  if (pdfjsModule) return pdfjsModule;
  noNativeCanvas();
  const shipped = join(__dirname, 'pdfjs');
  const packaged = existsSync(join(shipped, 'pdf.min.mjs'));
  const dir = packaged ? shipped : dirname(requireHere.resolve('pdfjs-dist/package.json'));
  const build = packaged ? shipped : join(dir, 'legacy', 'build');
  // Loading, pdfjs warns on the console that it cannot render without @napi-rs/canvas: true, and not our concern.
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    // pdfjs runs its parser in this very thread (no second worker) when it finds the worker module on globalThis.
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = requireHere(join(build, packaged ? 'pdf.worker.min.mjs' : 'pdf.worker.mjs'));
    pdfjsModule = requireHere(join(build, packaged ? 'pdf.min.mjs' : 'pdf.mjs')) as typeof Pdfjs;
  } finally {
    console.warn = warn;
  }
  fontsUrl = join(dir, 'standard_fonts') + '/';
  // The predefined CMaps (packed .bcmap): without them a CJK font encoded by one (`/Encoding /UniJIS-UCS2-H`, common in
  // Japanese, Chinese and Korean PDFs) yields no text, and the review would call a readable PDF scanned.
  cMapsUrl = join(dir, 'cmaps') + '/';
  return pdfjsModule;
}

/**
 * pdfjs require()s @napi-rs/canvas (native code) when it is loaded, if any node_modules above it holds it (a developer's
 * checkout does: pdfjs-dist depends on it optionally). Refused in this worker thread's own module loader, so a file of
 * an untrusted workspace never reaches native code; pdfjs then only warns that it cannot render, which we never do.
 */
function noNativeCanvas(): void {
  const loader = requireHere('node:module') as { _resolveFilename: (request: string, ...rest: unknown[]) => string };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    if (request === '@napi-rs/canvas' || request.startsWith('@napi-rs/canvas/')) {
      throw Object.assign(new Error('@napi-rs/canvas is not loaded: native code'), { code: 'MODULE_NOT_FOUND' });
    }
    return resolve.call(this, request, ...rest);
  };
  // pdfjs builds one DOMMatrix when it loads (a constant of its canvas code) and fails without one; text extraction
  // never uses it. The installed extension has no node_modules: without this, no PDF could be read there at all.
  (globalThis as { DOMMatrix?: unknown }).DOMMatrix ??= class DOMMatrix {
    a = 1;
    b = 0;
    c = 0;
    d = 1;
    e = 0;
    f = 0;
    constructor(init?: readonly number[]) {
      if (init?.length === 6) [this.a, this.b, this.c, this.d, this.e, this.f] = init as [number, number, number, number, number, number];
    }
  };
}

/** An /Encrypt entry of the trailer (or of a cross-reference stream's dictionary), which sits at the end of a PDF. */
function hasEncryptEntry(bytes: Uint8Array): boolean {
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).subarray(Math.max(0, bytes.byteLength - 256 * 1024));
  return tail.includes('/Encrypt', 0, 'latin1');
}

async function readPdf(bytes: Uint8Array, base: Omit<SourceText, 'kind'>): Promise<SourceText> {
  const lib = pdfjs();
  const encrypted = hasEncryptEntry(bytes);
  // pdfjs may take over (detach) the buffer it is given: the hash was taken before.
  const task = lib.getDocument({
    data: bytes,
    standardFontDataUrl: fontsUrl,
    cMapUrl: cMapsUrl,
    cMapPacked: true,
    isEvalSupported: false,
    verbosity: 0,
    stopAtErrors: false,
  });
  try {
    const doc = await task.promise;
    const pages = Math.min(doc.numPages, MAX_PDF_PAGES);
    const parts: string[] = [];
    for (let p = 1; p <= pages; p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      parts.push(
        content.items
          .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : ''))
          .join('')
          .replace(/[ \t]+/g, ' ')
          .trim(),
      );
      page.cleanup();
    }
    const text = parts.join('\n\n').trim();
    return { ...base, kind: 'pdf', pages: doc.numPages, words: countWords(text), encrypted, text, partial: doc.numPages > pages };
  } catch (e) {
    const name = e instanceof Error ? e.name : '';
    const unreadable =
      name === 'PasswordException'
        ? 'it is encrypted with a password: the service will likely read nothing from it'
        : `pdfjs cannot read it (${e instanceof Error ? e.message : String(e)})`;
    return { ...base, kind: 'pdf', words: 0, encrypted: encrypted || name === 'PasswordException', text: '', partial: false, unreadable };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

async function readDocx(bytes: Uint8Array, base: Omit<SourceText, 'kind'>): Promise<SourceText> {
  try {
    const mammoth = (await import('mammoth')) as typeof import('mammoth');
    const result = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
    // mammoth ends every paragraph (a table cell's too) with a blank line.
    const paragraphs = result.value
      .split(/\n{2,}/)
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const text = paragraphs.join('\n\n');
    return { ...base, kind: 'docx', paragraphs: paragraphs.length, words: countWords(text), encrypted: false, text, partial: false };
  } catch (e) {
    const unreadable = `it cannot be read as a Word document (${e instanceof Error ? e.message : String(e)})`;
    return { ...base, kind: 'docx', words: 0, encrypted: false, text: '', partial: false, unreadable };
  }
}

/** Reads one file. Never throws for what the file holds: an unreadable file comes back with its reason. */
export async function readSourceText(path: string, kind: SourceKind): Promise<SourceText> {
  const file = await readFile(path);
  const sha256 = createHash('sha256').update(file).digest('hex');
  const base = { sha256, words: 0, encrypted: false, text: '', partial: false };
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  return kind === 'pdf' ? readPdf(bytes, base) : readDocx(bytes, base);
}
