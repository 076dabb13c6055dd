// Source documents of a finetune job: is each file what its name says (magic bytes, and for DOCX the ZIP central
// directory), and the real text extraction the service performs (pdfjs-dist for PDF, mammoth for DOCX).
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { createInflateRaw } from 'node:zlib';

export type DocumentKind = 'pdf' | 'docx';

export const SUPPORTED_EXTENSIONS: Record<string, DocumentKind> = { '.pdf': 'pdf', '.docx': 'docx' };

/**
 * Above this size only the beginning of a document is read: a 500 MB benchmark upload must finish in seconds and with
 * flat memory, and pdfjs/mammoth would otherwise load the whole file (mammoth always does: it unzips in memory).
 */
export const LARGE_FILE_BYTES = 20 * 1024 * 1024;
/** Decompressed bytes of word/document.xml read from a large DOCX. */
const LARGE_DOCX_XML_BYTES = 4 * 1024 * 1024;
const EXTRACTION_TIMEOUT_MS = 60_000;

export function kindFromName(name: string): DocumentKind | undefined {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? undefined : SUPPORTED_EXTENSIONS[name.slice(dot).toLowerCase()];
}

export function looksLikePdf(head: Buffer): boolean {
  return head.subarray(0, 5).toString('latin1') === '%PDF-';
}

export function looksLikeZip(head: Buffer): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  localHeaderOffset: number;
}

/** Reads a ZIP's central directory from the end of the file (never the whole archive). */
export async function listZipEntries(path: string): Promise<ZipEntry[]> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    const tailLen = Math.min(size, 22 + 0xffff + 20);
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, size - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) {
      throw new Error('ZIP end of central directory not found');
    }
    let count = tail.readUInt16LE(eocd + 10);
    let cdSize = tail.readUInt32LE(eocd + 12);
    let cdOffset = tail.readUInt32LE(eocd + 16);
    if ((cdOffset === 0xffffffff || count === 0xffff) && eocd >= 20 && tail.readUInt32LE(eocd - 20) === 0x07064b50) {
      // ZIP64: the real numbers live in the ZIP64 end record.
      const rec = Buffer.alloc(56);
      await fh.read(rec, 0, 56, Number(tail.readBigUInt64LE(eocd - 20 + 8)));
      count = Number(rec.readBigUInt64LE(32));
      cdSize = Number(rec.readBigUInt64LE(40));
      cdOffset = Number(rec.readBigUInt64LE(48));
    }
    if (cdSize > 64 * 1024 * 1024 || cdOffset + cdSize > size) {
      throw new Error('ZIP central directory is invalid');
    }
    const cd = Buffer.alloc(cdSize);
    await fh.read(cd, 0, cdSize, cdOffset);
    const entries: ZipEntry[] = [];
    let pos = 0;
    for (let i = 0; i < count && pos + 46 <= cd.length; i++) {
      if (cd.readUInt32LE(pos) !== 0x02014b50) {
        throw new Error('ZIP central directory is corrupt');
      }
      const nameLen = cd.readUInt16LE(pos + 28);
      const extraLen = cd.readUInt16LE(pos + 30);
      const commentLen = cd.readUInt16LE(pos + 32);
      entries.push({
        name: cd.toString('utf8', pos + 46, pos + 46 + nameLen),
        method: cd.readUInt16LE(pos + 10),
        compressedSize: cd.readUInt32LE(pos + 20),
        localHeaderOffset: cd.readUInt32LE(pos + 42),
      });
      pos += 46 + nameLen + extraLen + commentLen;
    }
    return entries;
  } finally {
    await fh.close();
  }
}

/**
 * Checks a stored upload against its file name. Returns undefined when fine, else the user-facing reason, in the
 * service's words: "File 'notes.pdf' is not a PDF document".
 */
export async function verifyDocument(originalName: string, kind: DocumentKind, path: string, head: Buffer): Promise<string | undefined> {
  if (kind === 'pdf') {
    return looksLikePdf(head) ? undefined : `File '${originalName}' is not a PDF document`;
  }
  if (!looksLikeZip(head)) {
    return `File '${originalName}' is not a DOCX document`;
  }
  try {
    const entries = await listZipEntries(path);
    if (!entries.some((e) => e.name === 'word/document.xml')) {
      return `File '${originalName}' is not a DOCX document (no word/document.xml)`;
    }
  } catch (err) {
    return `File '${originalName}' is not a DOCX document (${err instanceof Error ? err.message : String(err)})`;
  }
  return undefined;
}

export interface Extraction {
  text: string;
  /** Only the beginning of the document was read (large file). */
  partial: boolean;
  pages?: number;
}

async function withTimeout<T>(what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${EXTRACTION_TIMEOUT_MS} ms`)), EXTRACTION_TIMEOUT_MS);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * PDF text comes from pdfjs in a worker thread (test/service/pdfText.ts): pdfjs installs browser globals
 * (`navigator`, `DOMMatrix`, ...) when they are missing, and the emulator often runs inside VS Code's extension host,
 * whose `navigator` is a getter that refuses to be set (VS Code 1.101+): there pdfjs failed on every PDF. A worker has
 * its own globals, so nothing pdfjs installs reaches the process that hosts the emulator, nor the extension under test.
 *
 * One worker serves every emulator of the process, its requests told apart by an id: loading pdfjs (its two modules
 * compiled afresh in each new thread) cost 0.5-2 s of CPU per PDF when each PDF had a worker of its own, most of the
 * emulator tests' time. It is unref'd (it never keeps the process alive) and replaced when it exits or a document holds
 * it past the time limit (it is then terminated, as a hung pdfjs must be).
 */
interface PdfWorker {
  worker: Worker;
  pending: Map<number, { resolve: (e: Extraction) => void; reject: (e: Error) => void }>;
}
let pdfWorker: PdfWorker | undefined;
let nextPdfRequest = 0;

function sharedPdfWorker(): PdfWorker {
  if (pdfWorker) return pdfWorker;
  const worker = new Worker(join(__dirname, 'pdfText.js'));
  const self: PdfWorker = { worker, pending: new Map() };
  const fail = (error: Error): void => {
    if (pdfWorker === self) pdfWorker = undefined;
    for (const request of self.pending.values()) request.reject(error);
    self.pending.clear();
  };
  worker.on('message', (message: { id: number; extraction?: Extraction; error?: string }) => {
    const request = self.pending.get(message.id);
    self.pending.delete(message.id);
    if (message.extraction) request?.resolve(message.extraction);
    else request?.reject(new Error(message.error ?? 'PDF parsing failed'));
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the PDF worker exited (${code})`)));
  worker.unref(); // after the listeners: a 'message' listener refs the worker again
  pdfWorker = self;
  return self;
}

async function extractPdf(path: string): Promise<Extraction> {
  const shared = sharedPdfWorker();
  const id = nextPdfRequest++;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<Extraction>((resolve, reject) => {
      shared.pending.set(id, { resolve, reject });
      timer = setTimeout(() => {
        reject(new Error(`PDF parsing timed out after ${EXTRACTION_TIMEOUT_MS} ms`));
        if (pdfWorker === shared) pdfWorker = undefined;
        void shared.worker.terminate();
      }, EXTRACTION_TIMEOUT_MS);
      shared.worker.postMessage({ id, path });
    });
  } finally {
    clearTimeout(timer);
    shared.pending.delete(id);
  }
}

function decodeXmlText(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, e: string) => {
    switch (e) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default:
        return String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    }
  });
}

/** Large DOCX: inflate only the first part of word/document.xml straight from the file and pull out the w:t runs. */
async function extractLargeDocx(path: string): Promise<Extraction> {
  const entry = (await listZipEntries(path)).find((e) => e.name === 'word/document.xml');
  if (!entry) {
    throw new Error('no word/document.xml');
  }
  const local = Buffer.alloc(30);
  const fh = await open(path, 'r');
  try {
    await fh.read(local, 0, 30, entry.localHeaderOffset);
  } finally {
    await fh.close();
  }
  if (local.readUInt32LE(0) !== 0x04034b50) {
    throw new Error('corrupt ZIP local header');
  }
  const dataStart = entry.localHeaderOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  const source = createReadStream(path, { start: dataStart, end: dataStart + Math.max(0, entry.compressedSize - 1) });
  const chunks: Buffer[] = [];
  let total = 0;
  let partial = false;
  await new Promise<void>((resolve, reject) => {
    const stream = entry.method === 8 ? source.pipe(createInflateRaw()) : source;
    const finish = (): void => {
      source.destroy();
      stream.destroy();
      resolve();
    };
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= LARGE_DOCX_XML_BYTES) {
        partial = true;
        finish();
      }
    });
    stream.on('end', finish);
    stream.on('error', (err: Error) => (partial ? resolve() : reject(err)));
    source.on('error', reject);
  });
  const xml = Buffer.concat(chunks).toString('utf8');
  const paragraphs = xml
    .split(/<\/w:p>/)
    .map((p) => [...p.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => decodeXmlText(m[1]!)).join(''));
  return {
    text: paragraphs
      .filter((p) => p.trim() !== '')
      .join('\n')
      .trim(),
    partial,
  };
}

async function extractDocx(path: string): Promise<Extraction> {
  const { size } = await stat(path);
  if (size > LARGE_FILE_BYTES) {
    return extractLargeDocx(path);
  }
  const mammoth = await import('mammoth');
  const result = await withTimeout('DOCX extraction', mammoth.extractRawText({ path }));
  return { text: result.value.trim(), partial: false };
}

/** Real text extraction. Throws with a short reason (the caller prefixes the file name). */
export async function extractText(kind: DocumentKind, path: string): Promise<Extraction> {
  const result = kind === 'pdf' ? await extractPdf(path) : await extractDocx(path);
  if (result.text.trim() === '') {
    throw new Error(kind === 'pdf' ? 'no extractable text (scanned or image-only PDF?)' : 'no extractable text (empty document?)');
  }
  return result;
}
