// The pre-flight read of the finetune sources: every chosen file read on this machine, in a worker thread, before
// anything is uploaded (issue 29): what the service will read, and the warnings a person wants before paying for a
// finetune. No vscode: the wizard shows it, the unit tests and the benchmark call it directly.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { l10n } from '../../l10n';
import type { SourceKind, SourceText } from './sourceText';
import type { SourceTextRequest } from './sourceTextWorker';

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
  /** The worker's heap bound; a file that needs more is reported, not read (default 1024 MB). */
  maxHeapMb?: number;
  /** Called after each file. */
  onFile?: (done: number, total: number) => void;
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_HEAP_MB = 1024;

/**
 * Reads the files one after the other in one worker thread (the machine's other core stays for the editor); a worker
 * that runs out of time or memory is ended and a fresh one reads the next file.
 */
export async function preflightRead(files: readonly PreflightFile[], options: PreflightOptions = {}): Promise<PreflightResult[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxHeapMb = options.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  const results: PreflightResult[] = [];
  let worker: Worker | undefined;
  try {
    for (const file of files) {
      if (options.signal?.aborted) break;
      worker ??= new Worker(join(__dirname, 'sourceTextWorker.js'), { resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } });
      const outcome = await readInWorker(worker, { path: file.path, kind: file.kind }, { timeoutMs, maxHeapMb }, options.signal);
      if ('result' in outcome) {
        results.push({ ...outcome.result, label: file.label });
      } else {
        results.push({ ...unread(file.kind), label: file.label, unreadable: outcome.failure });
        if (outcome.endWorker) {
          await worker.terminate();
          worker = undefined;
        }
      }
      options.onFile?.(results.length, files.length);
    }
  } finally {
    await worker?.terminate();
  }
  return results;
}

function unread(kind: SourceKind): SourceText {
  return { kind, words: 0, encrypted: false, sha256: '', text: '', partial: false };
}

type Outcome = { result: SourceText } | { failure: string; endWorker: boolean };

function readInWorker(
  worker: Worker,
  request: SourceTextRequest,
  { timeoutMs, maxHeapMb }: { timeoutMs: number; maxHeapMb: number },
  signal?: AbortSignal,
): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    const done = (outcome: Outcome): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onMessage = (message: { result?: SourceText; error?: string }): void =>
      done(
        message.result
          ? { result: message.result }
          : { failure: l10n.t('it cannot be read ({0})', message.error ?? '?'), endWorker: false },
      );
    // ERR_WORKER_OUT_OF_MEMORY when the file needs more than the worker's heap bound.
    const onError = (error: Error): void =>
      done({
        failure:
          (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? l10n.t('reading it needed more than {0} MB of memory; stopped', maxHeapMb)
            : l10n.t('it cannot be read ({0})', error.message),
        endWorker: true,
      });
    const onExit = (code: number): void => done({ failure: l10n.t('the reader stopped ({0})', code), endWorker: true });
    const onAbort = (): void => done({ failure: l10n.t('not read: cancelled'), endWorker: true });
    const timer = setTimeout(
      () => done({ failure: l10n.t('reading it took longer than {0} s; stopped', Math.round(timeoutMs / 1000)), endWorker: true }),
      timeoutMs,
    );
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(request);
  });
}
