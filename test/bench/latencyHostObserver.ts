// Loaded in the VS Code extension host by a helper extension the token-latency figure installs beside the one under
// test (test/bench/figures/latency.ts): sets the playground's observer (src/features/playground/latencyObserver.ts) and, a
// moment after each burst of chunks, writes every chunk's host stamps so far to the file HR_BENCH_LATENCY_STAMPS names.
// Buffered, not written per chunk: a file write in the posting path would add to the latency it measures.
import * as fs from 'node:fs';
import { OBSERVER_GLOBAL, type PlaygroundObserver } from '../../src/features/playground/latencyObserver';
import { STAMPS_ENV, type HostStamp } from './latencyShared';

const FLUSH_AFTER_MS = 250;

export function activate(): void {
  const file = process.env[STAMPS_ENV];
  if (!file) return;
  const stamps: HostStamp[] = [];
  const readAt = new Map<string, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const now = () => performance.timeOrigin + performance.now();
  const observer: PlaygroundObserver = {
    deltaRead(runId) {
      if (!readAt.has(runId)) readAt.set(runId, now());
    },
    chunkPosted(runId, seq) {
      stamps.push({ runId, seq, readAt: readAt.get(runId) ?? 0, postedAt: now() });
      readAt.delete(runId);
      if (timer) clearTimeout(timer);
      // Written aside and renamed: the figure reads the file meanwhile and must never see half of it.
      timer = setTimeout(() => {
        fs.writeFileSync(`${file}.tmp`, JSON.stringify(stamps));
        fs.renameSync(`${file}.tmp`, file);
      }, FLUSH_AFTER_MS);
    },
  };
  (globalThis as { [OBSERVER_GLOBAL]?: PlaygroundObserver })[OBSERVER_GLOBAL] = observer;
}

export function deactivate(): void {
  delete (globalThis as { [OBSERVER_GLOBAL]?: PlaygroundObserver })[OBSERVER_GLOBAL];
}
