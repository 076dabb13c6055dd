// One run of a comparison at a time, in every window. Two runs of one comparison (Resume in two windows, Resume
// offered while it still runs, the command and an agent's tool at once) would each send what the log says is missing:
// the same paid requests twice, both appended. So a run holds its log (`entries.jsonl.lock`, the lock of
// api/partLock.ts: created exclusively, its heartbeat refreshed while the run lasts, a lock whose process is gone or
// whose heartbeat stopped taken over, as a killed run's is), and a second run is refused before it sends anything.
// Within a window the hold is taken synchronously (a Set, before any await), so two runs of one thread cannot both
// take it. No vscode.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RequestError } from '../../../api/errors';
import { lockFile, partLockHeld, type FileLock, type LockHolder, type LockOptions } from '../../../api/partLock';
import { l10n } from '../../../l10n';

/** The comparisons this window runs now, by folder. */
const runningHere = new Set<string>();

/** A run refused because the comparison runs already (`here`: in this window). */
export class ComparisonRunningError extends RequestError {
  constructor(
    readonly here: boolean,
    readonly since?: number,
  ) {
    super(
      here
        ? l10n.t('This comparison is running in this window: wait for it to end, or cancel it first.')
        : l10n.t('This comparison is running in another window: wait for it to end, or cancel it there first.'),
    );
  }
}

export interface ComparisonHold {
  release(): Promise<void>;
}

const entriesOf = (dir: string) => path.join(dir, 'entries.jsonl');

/**
 * Takes the comparison in `dir` for one run; a ComparisonRunningError when it runs already. A lock that cannot be
 * made (a read-only folder) is logged and the run held in this window only: the log's own append then says why.
 */
export async function holdComparison(
  dir: string,
  log: (message: string) => void = () => undefined,
  options: LockOptions = {},
): Promise<ComparisonHold> {
  if (runningHere.has(dir)) throw new ComparisonRunningError(true);
  runningHere.add(dir);
  let lock: FileLock | undefined;
  try {
    lock = await lockFile(
      `${entriesOf(dir)}.lock`,
      { busy: (holder: LockHolder) => new ComparisonRunningError(false, holder.since), again: 'resume it again' },
      options,
    );
  } catch (e) {
    if (e instanceof ComparisonRunningError) {
      runningHere.delete(dir);
      throw e;
    }
    log(`Comparison: the lock in ${dir} could not be taken (${e instanceof Error ? e.message : String(e)}); held in this window only.`);
  }
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      try {
        await lock?.release();
      } finally {
        runningHere.delete(dir);
      }
    },
  };
}

/** Whether a run of the comparison in `dir` holds it now, in this window or another. */
export async function comparisonRunning(dir: string, options: LockOptions = {}): Promise<boolean> {
  return runningHere.has(dir) || (await partLockHeld(entriesOf(dir), options).catch(() => false));
}

/**
 * Clear Stored Records: removes every kept comparison under `root` but those running now (here or in another window),
 * each taken first so that no run starts on a folder being removed; what runs is kept, and counted.
 */
export async function removeComparisons(root: string): Promise<{ removed: number; kept: number }> {
  let names: string[];
  try {
    names = await fsp.readdir(root);
  } catch {
    return { removed: 0, kept: 0 };
  }
  let removed = 0;
  let kept = 0;
  for (const name of names) {
    const dir = path.join(root, name);
    let hold: ComparisonHold;
    try {
      hold = await holdComparison(dir);
    } catch (e) {
      if (!(e instanceof ComparisonRunningError)) throw e;
      kept++;
      continue;
    }
    try {
      await fsp.rm(dir, { recursive: true, force: true });
      removed++;
    } finally {
      await hold.release();
    }
  }
  return { removed, kept };
}
