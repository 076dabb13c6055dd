// The commands on a comparison's row in the Jobs view: Cancel (this window's run stops; every finished request stays
// kept), Resume (sends only what is missing), Retry Failed (sends the failed requests again, and what is missing),
// Open Result (the report of its first model) and Remove (from the list only: the result stays kept, in the report).
// Each takes the row's node only, and finds the comparison again under this extension's storage by its id: a command
// link could pass anything, and no path is taken from an argument. Resume and Retry Failed return once the run has
// started; it goes on with its notification and its row, as a run from the command does.
import * as path from 'node:path';
import { COMMANDS } from '../../../contributions';
import type { Services } from '../../../services';
import { comparisonsRoot, openResult, runAndReport } from './compareCommand';
import { ComparisonLog } from './comparisonLog';
import { isComparisonNode, type ComparisonRowSource } from './comparisonRows';

/** The ids ComparisonLog folders are named by (compareCommand.ts): base-36 time, a dash, base-36 random. */
const COMPARISON_ID = /^[a-z0-9]{1,16}-[a-z0-9]{0,16}$/;

export function comparisonRowCommands(services: Services, rows: ComparisonRowSource) {
  return {
    [COMMANDS.cancelComparison]: (arg?: unknown) => {
      const log = logOf(services, arg);
      return log ? services.comparisons.cancel(log.dir) : false;
    },
    [COMMANDS.resumeComparison]: (arg?: unknown) => start(services, arg, false),
    [COMMANDS.retryFailedComparison]: (arg?: unknown) => start(services, arg, true),
    [COMMANDS.openComparisonResult]: async (arg?: unknown) => {
      const log = logOf(services, arg);
      if (log) await openResult(log);
    },
    [COMMANDS.removeComparison]: (arg?: unknown) => {
      const log = logOf(services, arg);
      if (!log || services.comparisons.get(log.dir)) return false;
      rows.remove(log.dir);
      return true;
    },
  };
}

/** The comparison a row names, read again from its folder; undefined for anything but a row of the Jobs view. */
function logOf(services: Services, arg: unknown): ComparisonLog | undefined {
  if (!isComparisonNode(arg) || !COMPARISON_ID.test(arg.row.id)) return undefined;
  const log = ComparisonLog.open(path.join(comparisonsRoot(services), arg.row.id));
  return log?.spec.id === arg.row.id ? log : undefined;
}

/** Starts the run and returns whether it started; what it found is said when it ends (runAndReport). */
function start(services: Services, arg: unknown, retryFailed: boolean): boolean {
  const log = logOf(services, arg);
  if (!log || services.comparisons.get(log.dir)) return false;
  runAndReport(services, log, retryFailed).catch((e: unknown) =>
    services.log.error(`Comparison ${log.spec.id}: ${e instanceof Error ? e.message : String(e)}`),
  );
  return true;
}
