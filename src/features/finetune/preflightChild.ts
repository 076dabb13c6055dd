// The pre-flight reader's child process (bundled by esbuild.mjs as dist/preflightChild.js, forked by preflight.ts):
// the memory pdfjs and mammoth inflate a file into (array buffers, strings) lives outside a worker's JavaScript heap,
// in whichever process holds the worker, so the reading is done here and never in the extension host (issue 35). The
// reading itself runs in a worker thread (sourceTextWorker.js), because a synchronous inflate would block this thread:
// this thread only relays requests and results and samples the process's memory every few milliseconds, ending the
// whole process once it passes the cap. Cross-platform: process.memoryUsage.rss() is the resident set everywhere.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { SourceText } from './sourceText';
import type { SourceTextRequest } from './sourceTextWorker';

export const CAP_ARG = '--cap-mb=';
/** How often the resident set is sampled: inflating runs at a few hundred MB/s, so a sample misses a few MB. */
const SAMPLE_MS = 5;

export type FromPreflightChild =
  | { type: 'result'; result: SourceText; peak: number }
  | { type: 'error'; error: string; peak: number }
  /** Past the cap: the process ends right after this message. */
  | { type: 'memory'; peak: number };

const MB = 1024 * 1024;
const capMb = Number(process.argv.find((a) => a.startsWith(CAP_ARG))?.slice(CAP_ARG.length));

/** The process's resident high-water mark, as the system keeps it (getrusage; the peak working set on Windows), in bytes. */
function peak(): number {
  return process.resourceUsage().maxRSS * 1024;
}

function send(message: FromPreflightChild, then?: () => void): void {
  if (!process.send?.(message, undefined, undefined, () => then?.())) then?.();
}

if (process.send && capMb > 0) {
  // The worker's heap is bounded too: a heap that runs out fails that worker alone, with its own error, sooner.
  const worker = new Worker(join(__dirname, 'sourceTextWorker.js'), { resourceLimits: { maxOldGenerationSizeMb: capMb } });
  let ending = false;
  const end = (message: FromPreflightChild): void => {
    if (ending) return;
    ending = true;
    void worker.terminate();
    send(message, () => process.exit(0));
  };
  setInterval(() => {
    if (process.memoryUsage.rss() > capMb * MB) end({ type: 'memory', peak: peak() });
  }, SAMPLE_MS);
  worker.on('message', (message: { result?: SourceText; error?: string }) =>
    send(
      message.result
        ? { type: 'result', result: message.result, peak: peak() }
        : { type: 'error', error: message.error ?? '?', peak: peak() },
    ),
  );
  // ERR_WORKER_OUT_OF_MEMORY: the heap bound, told as the memory cap it is part of.
  worker.on('error', (error: Error & { code?: string }) =>
    end(
      error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { type: 'memory', peak: peak() } : { type: 'error', error: error.message, peak: peak() },
    ),
  );
  worker.on('exit', () => end({ type: 'error', error: 'the reader thread ended', peak: peak() }));
  process.on('message', (request: SourceTextRequest) => worker.postMessage(request));
  // The parent went away (closed window, crashed host): nothing is left to read for.
  process.on('disconnect', () => process.exit(0));
}
