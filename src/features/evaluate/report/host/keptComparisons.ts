// The comparisons on a person's questions kept under the extension's global storage (comparisonLog.ts), as the report
// shows those that name its model. The report renders again whenever a job changes, and a kept comparison can be
// 10,000 questions: a comparison's spec is read again only when its file changed, and its findings only when its log
// grew, so a render costs a few stats. No vscode.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ComparisonLog } from '../../compare/comparisonLog';
import { requestCounts } from '../../compare/compareRun';
import { summarize } from '../../compare/compareSummary';
import { REPORT_LIMITS, type ReportQuestionComparison } from '../protocol';
import { questionComparisonView } from './questionComparisonView';

interface Kept {
  specStamp: string;
  id: string;
  setName: string;
  models: readonly string[];
  createdAt: number;
  /** Requests in all (answers and the judge's). */
  requests: number;
  scope?: string;
  logStamp?: string;
  view?: ReportQuestionComparison;
}

/** A marker in a comparison's folder: removed from the Jobs view (a file, so every window leaves it out). */
const REMOVED_FROM_JOBS = 'removed-from-jobs';

/** A kept comparison as the Jobs view lists it. */
export interface KeptProgress {
  dir: string;
  id: string;
  setName: string;
  models: readonly string[];
  createdAt: number;
  requests: number;
  missing: number;
  failed: number;
}

export class KeptComparisons {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly root: string) {}

  /**
   * The newest comparisons that name the model (at most REPORT_LIMITS.questionComparisons), newest first: those run
   * with `scope` (the report's service and key: a model of the same name elsewhere is another model), and those kept
   * before the scope was recorded.
   */
  forModel(modelName: string, scope: string | undefined): ReportQuestionComparison[] {
    const named = this.refresh()
      .filter(([, k]) => k.models.includes(modelName) && (k.scope === undefined || k.scope === scope))
      .sort(([, a], [, b]) => b.createdAt - a.createdAt)
      .slice(0, REPORT_LIMITS.questionComparisons);
    return named.flatMap(([dir, k]) => this.viewOf(dir, k) ?? []);
  }

  /**
   * The comparisons the Jobs view lists (those of `scope`, or kept before the scope was, and not removed from it), newest
   * first, with how far each went; `running` (this window's runs) are counted by their run, not read again.
   */
  listed(scope: string | undefined, running: (dir: string) => boolean): KeptProgress[] {
    return this.refresh()
      .filter(([dir, k]) => (k.scope === undefined || k.scope === scope) && !fs.existsSync(path.join(dir, REMOVED_FROM_JOBS)))
      .sort(([, a], [, b]) => b.createdAt - a.createdAt)
      .flatMap(([dir, k]) => {
        const brief = { dir, id: k.id, setName: k.setName, models: k.models, createdAt: k.createdAt, requests: k.requests };
        if (running(dir)) return [{ ...brief, missing: 0, failed: 0 }];
        const view = this.viewOf(dir, k);
        return view ? [{ ...brief, missing: view.missing, failed: view.failed }] : [];
      });
  }

  /** Leaves the comparison out of the Jobs view; its result stays kept, and in the report. */
  removeFromJobs(dir: string): void {
    fs.writeFileSync(path.join(dir, REMOVED_FROM_JOBS), '');
  }

  /** Every kept comparison's folder with what is known of it; a folder gone (cleared) is forgotten. */
  private refresh(): [string, Kept][] {
    let names: string[];
    try {
      names = fs.readdirSync(this.root);
    } catch {
      names = [];
    }
    const dirs = new Set(names.map((n) => path.join(this.root, n)));
    for (const dir of [...this.kept.keys()]) if (!dirs.has(dir)) this.kept.delete(dir);
    const out: [string, Kept][] = [];
    for (const dir of dirs) {
      const specStamp = stamp(path.join(dir, 'spec.json'));
      if (specStamp === undefined) continue;
      let k = this.kept.get(dir);
      if (k?.specStamp !== specStamp) {
        const log = ComparisonLog.open(dir);
        if (!log) continue;
        const { answers, judge } = requestCounts(log.spec);
        k = {
          specStamp,
          id: log.spec.id,
          setName: log.spec.setName,
          models: log.spec.models,
          createdAt: log.spec.createdAt,
          requests: answers + judge,
          ...(typeof log.spec.scope === 'string' && { scope: log.spec.scope }),
        };
        this.kept.set(dir, k);
      }
      out.push([dir, k]);
    }
    return out;
  }

  private viewOf(dir: string, k: Kept): ReportQuestionComparison | undefined {
    const logStamp = stamp(path.join(dir, 'entries.jsonl')) ?? '';
    if (k.view && k.logStamp === logStamp) return k.view;
    const log = ComparisonLog.open(dir);
    if (!log) return undefined;
    k.view = questionComparisonView(log.spec, summarize(log.spec, log.entries()));
    k.logStamp = logStamp;
    return k.view;
  }
}

function stamp(file: string): string | undefined {
  try {
    const s = fs.statSync(file);
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return undefined;
  }
}
