// What a comparison's row in the Jobs view says, from what is known of it alone: no vscode, tested in plain mocha. A
// comparison runs in this window (done/total, time left), runs in another (its lock is held there), or does not run:
// cancelled here, interrupted (a reload or a crash: every finished request is kept, Resume sends the rest), or done.
import { timeLeftText } from '../../../jobs/timeLeft';
import { l10n } from '../../../l10n';

export type ComparisonRowState = 'running' | 'elsewhere' | 'cancelled' | 'interrupted' | 'done';

export interface ComparisonRow {
  id: string;
  dir: string;
  setName: string;
  models: readonly string[];
  createdAt: number;
  state: ComparisonRowState;
  /** Requests done of all (failed ones count as done). */
  done: number;
  total: number;
  failed: number;
  /** Time left of a run of this window, in ms, when its rate is known. */
  leftMs?: number;
}

/** The state of a comparison from where it runs and what its log holds. */
export function comparisonRowState(p: {
  runningHere: boolean;
  runningElsewhere: boolean;
  cancelledHere: boolean;
  missing: number;
}): ComparisonRowState {
  if (p.runningHere) return 'running';
  if (p.runningElsewhere) return 'elsewhere';
  if (p.missing === 0) return 'done';
  return p.cancelledHere ? 'cancelled' : 'interrupted';
}

/** "Compare tuned vs base on questions.jsonl". Names as given: the caller makes them inert. */
export function comparisonRowLabel(row: Pick<ComparisonRow, 'models' | 'setName'>): string {
  return l10n.t('Compare {0} on {1}', row.models.join(l10n.t(' vs ')), row.setName);
}

/**
 * "running · 10 of 100 · 2 failed · about 2 min left" (the failures counted as they come), "interrupted · 10 of 100
 * done, 90 missing", "done · 100 requests, 3 failed".
 */
export function comparisonRowDescription(row: Omit<ComparisonRow, 'id' | 'dir' | 'setName' | 'models' | 'createdAt'>): string {
  const failed = row.failed > 0 ? l10n.t(', {0} failed', row.failed) : '';
  const missing = row.total - row.done;
  switch (row.state) {
    case 'running': {
      const counts =
        row.failed > 0
          ? l10n.t('running · {0} of {1} · {2} failed', row.done, row.total, row.failed)
          : l10n.t('running · {0} of {1}', row.done, row.total);
      return row.leftMs === undefined ? counts : `${counts} · ${timeLeftText({ lowMs: row.leftMs, highMs: row.leftMs })}`;
    }
    case 'elsewhere':
      return l10n.t('running in another window · {0} of {1}', row.done, row.total);
    case 'cancelled':
      return l10n.t('cancelled · {0} of {1} done, {2} missing{3}', row.done, row.total, missing, failed);
    case 'interrupted':
      return l10n.t('interrupted · {0} of {1} done, {2} missing{3}', row.done, row.total, missing, failed);
    case 'done':
      return l10n.t('done · {0} requests{1}', row.total, failed);
  }
}

/**
 * The row's context value, which the menus read: `comparison <state>`, `idle` when it does not run (Resume, Retry
 * Failed and Remove are offered then), `missing` and `failed` when it has such requests. Never `job`, `finetune`,
 * `evaluation` or `followed`: those words offer the job commands.
 */
export function comparisonContextValue(row: Pick<ComparisonRow, 'state' | 'done' | 'total' | 'failed'>): string {
  const idle = row.state !== 'running' && row.state !== 'elsewhere';
  return [
    'comparison',
    row.state,
    ...(idle ? ['idle'] : []),
    ...(idle && row.done < row.total ? ['missing'] : []),
    ...(idle && row.failed > 0 ? ['failed'] : []),
  ].join(' ');
}
