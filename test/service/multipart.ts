// multipart/form-data intake for POST /cr/generate_questions. Every `files` part is streamed straight to disk (a
// 500 MB upload costs a few 64 KiB buffers, never the file), and only the first bytes are kept to check the magic.
import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/**
 * Limits chosen for the emulator (spec §8: not shown): no tighter than the extension's defaults
 * (hostedReasoning.finetune.maxFiles, maxFileSizeMB), so a job the extension lets through by default is never refused
 * here (test/unit/emulatorLimits.test.ts).
 */
export const MAX_FILES = 100;
export const MAX_FILE_BYTES = 4 * 1024 * 1024 * 1024;
const MAX_FIELD_BYTES = 64 * 1024;
const HEAD_BYTES = 16;

export interface UploadedFile {
  /** Name the client sent, reduced to its base name (some clients send paths). */
  originalName: string;
  /** Where it is stored (never derived from the client's name: no traversal possible). */
  storedPath: string;
  size: number;
  /** First bytes, for the magic-number check. */
  head: Buffer;
}

export interface ParsedUpload {
  fields: Map<string, string>;
  files: UploadedFile[];
  /** Parts named `files` that carried no file name (sent as plain fields). */
  filesWithoutName: number;
}

export class UploadError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The client went away mid-upload: nothing to answer, everything to clean up. */
export class ClientGone extends Error {}

export function receiveMultipart(req: IncomingMessage, dir: string): Promise<ParsedUpload> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { files: MAX_FILES, fileSize: MAX_FILE_BYTES, fieldSize: MAX_FIELD_BYTES, fields: 50, parts: MAX_FILES + 50 },
      });
    } catch (err) {
      reject(new UploadError(400, `There was an error parsing the body: ${err instanceof Error ? err.message : String(err)}`));
      return;
    }
    const fields = new Map<string, string>();
    const files: UploadedFile[] = [];
    const writes: Promise<void>[] = [];
    let filesWithoutName = 0;
    let failure: Error | undefined;
    let settled = false;
    const fail = (err: Error): void => {
      if (settled) {
        return;
      }
      settled = true;
      failure = err;
      req.unpipe(parser);
      parser.removeAllListeners('file');
      // Keep draining what the client still sends so an error answer can be delivered on a live connection.
      req.resume();
      reject(err);
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) {
        fail(new UploadError(413, `Form field '${name}' exceeds ${MAX_FIELD_BYTES} bytes`));
        return;
      }
      if (name === 'files') {
        filesWithoutName += 1;
        return;
      }
      if (!fields.has(name)) {
        fields.set(name, value); // first value wins, like FastAPI's Form()
      }
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'files' || failure) {
        stream.resume(); // parts under other names are ignored, as FastAPI ignores undeclared form fields
        return;
      }
      if (!info.filename) {
        filesWithoutName += 1;
        stream.resume();
        return;
      }
      const file: UploadedFile = {
        originalName: basename(info.filename.replace(/\\/g, '/')) || info.filename,
        storedPath: join(dir, `part-${files.length}`),
        size: 0,
        head: Buffer.alloc(0),
      };
      files.push(file);
      stream.on('data', (chunk: Buffer) => {
        if (file.head.length < HEAD_BYTES) {
          file.head = Buffer.concat([file.head, chunk.subarray(0, HEAD_BYTES - file.head.length)]);
        }
        file.size += chunk.length;
      });
      stream.on('limit', () => fail(new UploadError(413, `File '${file.originalName}' exceeds ${MAX_FILE_BYTES} bytes`)));
      const write = pipeline(stream, createWriteStream(file.storedPath, { highWaterMark: 256 * 1024 }));
      write.catch(() => undefined); // observed via Promise.all below; never an unhandled rejection after an abort
      writes.push(write);
    });
    parser.on('filesLimit', () => fail(new UploadError(413, `Too many files: at most ${MAX_FILES} per job`)));
    parser.on('partsLimit', () => fail(new UploadError(413, 'Too many form parts')));
    parser.on('fieldsLimit', () => fail(new UploadError(413, 'Too many form fields')));
    parser.on('error', (err: Error) => fail(new UploadError(400, `There was an error parsing the body: ${err.message}`)));
    parser.on('close', () => {
      if (settled) {
        return;
      }
      Promise.all(writes).then(
        () => {
          if (!settled) {
            settled = true;
            resolve({ fields, files, filesWithoutName });
          }
        },
        (err: Error) => fail(new UploadError(500, `Could not store upload: ${err.message}`)),
      );
    });
    req.on('close', () => {
      if (!req.complete) {
        // Aborted mid-upload: stop the parser so the part streams end (and their files close) at once.
        parser.destroy();
        fail(new ClientGone('client aborted the upload'));
      }
    });
    req.pipe(parser);
  });
}
