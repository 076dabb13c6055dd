// The comparisons on a person's questions kept under the extension's global storage (comparisonLog.ts), as the report
// shows those that name its model. The report renders again whenever a job changes, and a kept comparison can be
// 10,000 questions: a comparison's spec is read again only when its file changed, and its findings only when its log
// grew, so a render costs a few stats. No vscode.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ComparisonLog } from '../../compare/comparisonLog';
import { summarize } from '../../compare/compareSummary';
import { REPORT_LIMITS, type ReportQuestionComparison } from '../protocol';
import { questionComparisonView } from './questionComparisonView';

interface Kept {
  specStamp: string;
  models: readonly string[];
  createdAt: number;
  scope?: string;
  logStamp?: string;
  view?: ReportQuestionComparison;
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
        k = {
          specStamp,
          models: log.spec.models,
          createdAt: log.spec.createdAt,
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
