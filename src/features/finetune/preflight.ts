// The pre-flight read of the finetune sources: every chosen file read on this machine, in a child process, before
// anything is uploaded (issue 29): what the service will read, and the warnings a person wants before paying for a
// finetune. In a child process, not a worker thread of the extension host, because what pdfjs and mammoth inflate lives
// outside any JavaScript heap: a small file that inflates to gigabytes must take the reader's process down, never the
// editor's (issue 35). No vscode: the wizard shows it, the unit tests and the benchmark call it directly.
import { fork, type ChildProcess } from 'node:child_process';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { l10n } from '../../l10n';
import { formatBytes } from '../../util/byteSize';
import { CAP_ARG, type FromPreflightChild } from './preflightChild';
import type { SourceKind, SourceText } from './sourceText';
import type { SourceTextRequest } from './sourceTextWorker';
import { readZipEntries, ZipFormatError } from './zipEntries';

export interface PreflightFile {
  /** A path on this machine (virtual files are copied first, as for the upload). */
  path: string;
  kind: SourceKind;
  /** How the person knows the file; every warning names it by this. */
  label: string;
}

export interface PreflightResult extends SourceText {
  label: string;
}

export interface PreflightOptions {
  /** One file's read is stopped after this long: a pathological PDF must not hold the review (default 60 s). */
  timeoutMs?: number;
  /**
   * The reader process's memory bound, all of it (heap, array buffers, strings): past it the process is ended and the
   * file is reported, not read (default 1024 MB). A DOCX whose parts declare more than a quarter of it is not read.
   */
  maxMemoryMb?: number;
  /**
   * After each file the reader process read: that process's resident high-water mark so far, in bytes (the benchmark
   * and the tests measure the bound with it).
   */
  onReaderPeak?: (bytes: number) => void;
  /** The reader process's module; default: preflightChild.js beside this code (dist/ once bundled). */
  childModule?: string;
  /** Called after each file. */
  onFile?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_MEMORY_MB = 1024;
/**
 * The XML a DOCX may declare, as a share of the memory bound: mammoth holds each part inflated, then as a string, then
 * parsed, so a document near this already needs the rest of the bound. Real documents declare a few MB.
 */
const DOCX_XML_SHARE = 1 / 4;
const MB = 1024 * 1024;

/**
 * Reads the files one after the other in one child process (the machine's other core stays for the editor); a child that
 * runs out of time or memory is ended and a fresh one reads the next file.
 */
export async function preflightRead(files: readonly PreflightFile[], options: PreflightOptions = {}): Promise<PreflightResult[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxMemoryMb = options.maxMemoryMb ?? DEFAULT_MAX_MEMORY_MB;
  const childModule = options.childModule ?? join(__dirname, 'preflightChild.js');
  const results: PreflightResult[] = [];
  let child: Reader | undefined;
  try {
    for (const file of files) {
      if (options.signal?.aborted) break;
      const refusal = file.kind === 'docx' ? await docxRefusal(file.path, maxMemoryMb * MB * DOCX_XML_SHARE) : undefined;
      if (refusal) {
        results.push({ ...unread(file.kind), label: file.label, unreadable: refusal });
        options.onFile?.(results.length, files.length);
        continue;
      }
      if (!child || child.exited) child = startReader(childModule, maxMemoryMb);
      const outcome = await readInChild(child, { path: file.path, kind: file.kind }, { timeoutMs, maxMemoryMb }, options.signal);
      if (outcome.peak !== undefined) options.onReaderPeak?.(outcome.peak);
      if ('result' in outcome) {
        results.push({ ...outcome.result, label: file.label });
      } else {
        results.push({ ...unread(file.kind), label: file.label, unreadable: outcome.failure });
        if (outcome.endChild) child.end();
      }
      options.onFile?.(results.length, files.length);
    }
  } finally {
    child?.end();
  }
  return results;
}

function unread(kind: SourceKind): SourceText {
  return { kind, words: 0, encrypted: false, sha256: '', text: '', partial: false };
}

/**
 * Why a DOCX is not handed to mammoth: the XML parts its ZIP directory declares inflate past `bound`. Read with ranged
 * reads, nothing inflated. A directory that cannot be read is left to mammoth to word; one that lies about its sizes
 * is still held by the reader process's memory bound.
 */
async function docxRefusal(path: string, bound: number): Promise<string | undefined> {
  let declared = 0;
  try {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const entries = await readZipEntries(size, async (position, length) => {
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        return buffer.subarray(0, bytesRead);
      });
      // Every XML part, a superset of those mammoth parses for the text; media (images) it never inflates for it.
      for (const e of entries) if (/\.(xml|rels)$/i.test(e.name)) declared += e.uncompressedSize;
    } finally {
      await handle.close();
    }
  } catch (e) {
    if (e instanceof ZipFormatError) return undefined;
    return l10n.t('it cannot be read ({0})', e instanceof Error ? e.message : String(e));
  }
  return declared > bound
    ? l10n.t(
        'it inflates to {0} when read, more than the {1} this review reads; it was not read',
        formatBytes(declared),
        formatBytes(bound),
      )
    : undefined;
}

interface Reader {
  process: ChildProcess;
  exited: boolean;
  /** The last line the process wrote to stderr: why it stopped, when it could not start. */
  lastError: string;
  end(): void;
}

function startReader(childModule: string, maxMemoryMb: number): Reader {
  const proc = fork(childModule, [`${CAP_ARG}${maxMemoryMb}`], {
    // Inside VS Code, process.execPath is the editor's binary: this makes it run the child as plain Node (as the local
    // runtime's child, src/local/localRuntime.ts).
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    execArgv: [],
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    serialization: 'advanced',
  });
  const reader: Reader = {
    process: proc,
    exited: false,
    lastError: '',
    end: () => {
      if (!reader.exited) proc.kill('SIGKILL');
    },
  };
  proc.stderr?.setEncoding('utf8').on('data', (text: string) => {
    const line = text.trim().split('\n').pop()?.slice(0, 300);
    if (line) reader.lastError = line;
  });
  proc.once('exit', () => (reader.exited = true));
  // Never spawned, or its channel closed under a send: an 'exit' may not follow, and the read waiting on it must end.
  proc.on('error', (error) => {
    reader.lastError = error.message;
    if (reader.exited) return;
    reader.exited = true;
    proc.emit('exit', null, null);
  });
  return reader;
}

type Outcome = ({ result: SourceText } | { failure: string; endChild: boolean }) & { peak?: number };

function readInChild(
  reader: Reader,
  request: SourceTextRequest,
  { timeoutMs, maxMemoryMb }: { timeoutMs: number; maxMemoryMb: number },
  signal?: AbortSignal,
): Promise<Outcome> {
  const proc = reader.process;
  return new Promise<Outcome>((resolve) => {
    let overCap: number | undefined;
    const done = (outcome: Outcome): void => {
      clearTimeout(timer);
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const memoryFailure = l10n.t('reading it needed more than {0} MB of memory (it inflates when read); it was not read', maxMemoryMb);
    const onMessage = (message: FromPreflightChild): void => {
      if (message.type === 'result') {
        done({ result: message.result, peak: message.peak });
      } else if (message.type === 'error') {
        done({ failure: l10n.t('it cannot be read ({0})', message.error), endChild: false, peak: message.peak });
      } else {
        // The child ends itself right after: the outcome waits for its exit, so the next file gets a fresh one.
        overCap = message.peak;
      }
    };
    const onExit = (code: number | null, signalName: NodeJS.Signals | null): void =>
      done(
        overCap !== undefined
          ? { failure: memoryFailure, endChild: true, peak: overCap }
          : {
              failure: l10n.t('the reader stopped ({0})', [signalName ?? code ?? '?', reader.lastError].filter(Boolean).join(': ')),
              endChild: true,
            },
      );
    const onAbort = (): void => done({ failure: l10n.t('not read: cancelled'), endChild: true });
    const timer = setTimeout(
      () => done({ failure: l10n.t('reading it took longer than {0} s; stopped', Math.round(timeoutMs / 1000)), endChild: true }),
      timeoutMs,
    );
    if (reader.exited) return onExit(null, null);
    proc.on('message', onMessage);
    proc.once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    proc.send(request);
  });
}
