// What the comparison tool does that needs no vscode, for both faces (hosted_compare_models in the extension, the MCP
// server): the question set a path names, read only inside the given folders (the spelling by workspacePath.ts, the real
// path by realPlace.ts) and within the size limit; the scoring the set allows; the run's result in words.
import * as fs from 'node:fs/promises';
import { isReallyInside } from '../finetune/realPlace';
import { bucketWords } from '../evaluate/compare/compareExport';
import type { ComparisonSpec, Scoring } from '../evaluate/compare/comparisonLog';
import type { summarize } from '../evaluate/compare/compareSummary';
import { checkQuestionSetSize, parseQuestionSet, questionSetFormat, type QuestionSet } from '../evaluate/compare/questionSet';
import { said } from './toolText';
import { resolveWorkspacePath, type WorkspaceRoot } from './workspacePath';

export const SCORINGS: readonly Scoring[] = ['normalized', 'exact', 'judge', 'pairwise'];
/** Most per-question lines a result lists (the buckets' counts are whole). */
const MAX_LISTED_QUESTIONS = 50;

/** The set `given` names inside `roots`, read after its checks; or why not. */
export async function readQuestionSetIn(
  given: string,
  roots: readonly WorkspaceRoot[],
): Promise<{ set: QuestionSet; label: string } | { problem: string }> {
  const resolved = resolveWorkspacePath(given, roots);
  if ('problem' in resolved) return resolved;
  const format = questionSetFormat(resolved.path);
  if (!format) return { problem: `${resolved.label} is not a question set: use a .jsonl, .csv or .md file.` };
  if (
    !(await isReallyInside(
      resolved.path,
      roots.map((r) => r.path),
    ))
  ) {
    return { problem: `${resolved.label} is outside the workspace folders (or cannot be read); only files inside them can be used.` };
  }
  try {
    checkQuestionSetSize((await fs.stat(resolved.path)).size);
    return { set: parseQuestionSet(await fs.readFile(resolved.path, 'utf8'), format), label: resolved.label };
  } catch (e) {
    return { problem: `${resolved.label}: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The scoring asked for, or the one the set allows: match with expected answers, the pairwise judge without. */
export function scoringFor(req: { scoring?: Scoring; judgeModel?: string }, set: QuestionSet): Scoring | { problem: string } {
  const scoring = req.scoring ?? (set.expectedColumn ? 'normalized' : 'pairwise');
  if (scoring !== 'pairwise' && !set.expectedColumn) {
    return { problem: `The set has no expected answers: only the pairwise judge can score it.` };
  }
  if ((scoring === 'judge' || scoring === 'pairwise') && !req.judgeModel) return { problem: `A ${scoring} scoring needs judgeModel.` };
  return scoring;
}

/** The run's result for an agent: accuracies with intervals, each pair's test in words and buckets, the differing questions. */
export function comparisonLines(
  spec: Pick<ComparisonSpec, 'models' | 'items' | 'scoring'>,
  setLabel: string,
  summary: ReturnType<typeof summarize>,
  cancelled: boolean,
  /** What resumes a cancelled run and retries failed requests, when something does (the command's title). */
  resume?: string,
): string[] {
  const lines = [
    `Comparison of ${spec.models.map((m) => said(m, 80)).join(', ')} on ${said(setLabel, 200)} (${spec.items.length} questions, scoring: ${spec.scoring}).`,
  ];
  if (cancelled) lines.push(`Cancelled: ${summary.missing} requests missing.${resume ? ` The person can resume it with ${resume}.` : ''}`);
  if (summary.failed > 0) lines.push(`${summary.failed} requests failed${resume ? ` (kept; ${resume} retries them)` : ''}.`);
  for (const a of summary.accuracies) {
    const i = a.interval ? ` (95% Wilson interval ${(a.interval.lower * 100).toFixed(1)}% to ${(a.interval.upper * 100).toFixed(1)}%)` : '';
    lines.push(`Accuracy of ${said(a.model, 80)}: ${a.correct} of ${a.scored}${i}.`);
  }
  for (const p of summary.pairs) {
    lines.push(said(p.sentence, 600));
    lines.push(
      `Buckets: ${Object.entries(p.buckets)
        .map(([b, n]) => `${bucketWords(b as never)} ${n}`)
        .join(', ')}.`,
    );
  }
  const differing = summary.rows.filter((r) => r.bucket !== undefined && r.bucket !== 'bothRight' && r.bucket !== 'bothWrong');
  if (differing.length > 0) {
    lines.push(
      '',
      `Questions where they differ (line: bucket: question), first ${Math.min(MAX_LISTED_QUESTIONS, differing.length)} of ${differing.length}:`,
    );
    for (const r of differing.slice(0, MAX_LISTED_QUESTIONS)) {
      lines.push(`- ${r.line}: ${bucketWords(r.bucket)}: ${said(r.question, 160)}`);
    }
  }
  return lines;
}
