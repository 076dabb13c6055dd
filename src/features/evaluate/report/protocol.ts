// The evaluation report's message protocol, imported by the host and the page so a shape cannot drift between them.
// The page's messages are untrusted input: the host acts on one only after `reportMessageProblem` found nothing wrong,
// and a message never carries a dataset or a model name to act on, only the index of a dataset row the host itself
// rendered. No `vscode` and no Node imports: this module is bundled into the page too.
import type { Verdict } from '../statistics';
import { isRecord, literal, messageProblem, num, exactFields, type Check } from '../../../api/strictChecks';

export { REPORT_VIEW_TYPE } from '../../../contributions';

export const REPORT_LIMITS = {
  modelNameChars: 256,
  addedModels: 10,
  datasetRows: 10_000,
  /** Comparisons on a person's questions shown in one report (the newest that name the model). */
  questionComparisons: 5,
  /** Questions shown per comparison (the export has them all). */
  questionRows: 2_000,
  /** Characters shown of a question, an expected answer, an answer or its reasoning (the export has them whole). */
  questionChars: 4_000,
} as const;

/** How a model takes part in the report. */
export type ReportRole = 'model' | 'base' | 'added';

/** One finished evaluation. */
export interface ReportEvaluation {
  jobId: string;
  correct: number;
  total: number;
  /** 0..1, as the service reported it. */
  accuracy: number;
  /** 95 % Wilson interval; absent when there were no usable counts. */
  lower?: number;
  upper?: number;
  judgeModel?: string;
  /** When it finished (ms since the epoch). */
  at: number;
}

/** The report's model against one other model on one dataset, from their newest evaluations there. */
export interface ReportComparison {
  otherModel: string;
  role: Exclude<ReportRole, 'model'>;
  /** The report's model minus the other one; absent (with the interval) when either had no usable counts. */
  estimate?: number;
  lower?: number;
  upper?: number;
  verdict?: Verdict;
  judgesDiffer: boolean;
  judgeUnknown: boolean;
}

export interface ReportModelColumn {
  name: string;
  role: ReportRole;
  /** Evaluations of this model on the dataset, newest first (the first is the one compared and charted). */
  evaluations: ReportEvaluation[];
  /** An evaluation of this model on the dataset is queued or running. */
  running: boolean;
}

export interface ReportDataset {
  /** The row's index: what the page sends back to act on it. */
  id: number;
  datasetName: string;
  /** The report's model first, then its base, then the models added. */
  columns: ReportModelColumn[];
  comparisons: ReportComparison[];
  /** The base is known, has no result here and none running: the page offers to evaluate it. */
  canEvaluateBase: boolean;
}

/** One source file of the finetune that created the model (jobs/lineage.ts). */
export interface ReportLineageFile {
  name: string;
  size: number;
  /** SHA-256 of the bytes sent, hex; absent when it was not recorded. */
  sha256?: string;
}

/** Where the model came from: the finetune job here that created it, as its lineage recorded it. */
export interface ReportLineage {
  baseModel: string;
  files: ReportLineageFile[];
  numQs: number;
  mode: string;
  useCase: string;
  jobId: string;
  /** When the service accepted the job (ms since the epoch). */
  startedAt: number;
  /** When the job ended, if it has (ms since the epoch). */
  finishedAt?: number;
}

/**
 * A lineage time as jobs/lineage.ts writes it, ISO 8601 in UTC to the minute ("2024-05-01 14:12 UTC"): the page and
 * the export say the same.
 */
export function lineageTime(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? 'unknown' : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Where a question's verdicts put it: the subject against the first other model (its base), or a pairwise judge's. */
export type QuestionBucket = 'fixed' | 'regressed' | 'bothRight' | 'bothWrong' | 'win' | 'loss' | 'tie';

/** One model's answer to one of the person's questions. */
export interface ReportQuestionAnswer {
  model: string;
  text?: string;
  reasoning?: string;
  /** The service's words when the answer or its judging failed. */
  error?: string;
  /** Undefined when unscored (no expected answer, a pairwise judge, not judged yet, failed). */
  right?: boolean;
}

export interface ReportQuestionRow {
  /** The line of the question set it came from. */
  line: number;
  question: string;
  expected?: string;
  /** In the order of the comparison's models. */
  answers: ReportQuestionAnswer[];
  bucket?: QuestionBucket;
  /** The models' verdicts differ on it (fixed or regressed, or a judge preferred one): what the filter keeps. */
  differs: boolean;
}

export interface ReportQuestionAccuracy {
  model: string;
  correct: number;
  scored: number;
  /** 95 % Wilson interval; absent when nothing was scored. */
  lower?: number;
  upper?: number;
}

/** The subject (the first model) against one other, as compareSummary.ts finds it. */
export interface ReportQuestionPair {
  other: string;
  buckets: Partial<Record<QuestionBucket, number>>;
  /** Questions scored for both. */
  n: number;
  /** Paired difference of accuracies with Newcombe's interval (absent for a pairwise judge or before anything is scored). */
  estimate?: number;
  lower?: number;
  upper?: number;
  verdict?: Verdict;
  /** Exact McNemar (or, for a pairwise judge, the sign test). */
  p?: number;
  /** The whole finding in words. */
  sentence: string;
}

/** A comparison on a person's own questions (Compare Models on Questions…) that names the report's model. */
export interface ReportQuestionComparison {
  setName: string;
  /** When it was started (ms since the epoch). */
  createdAt: number;
  /** The subject first, then the others. */
  models: string[];
  pairwise: boolean;
  /** How answers are scored, in words. */
  scoring: string;
  accuracies: ReportQuestionAccuracy[];
  pairs: ReportQuestionPair[];
  /** At most REPORT_LIMITS.questionRows, in the set's order. */
  rows: ReportQuestionRow[];
  /** Questions in the set (more than `rows` when cut). */
  questions: number;
  /** Requests not done yet (Resume sends them), and failed ones (kept; retried on request). */
  missing: number;
  failed: number;
}

export interface ReportView {
  modelName: string;
  baseModel?: string;
  /** Absent when no finetune job here recorded the model's lineage (a model not created by this extension). */
  lineage?: ReportLineage;
  addedModels: string[];
  datasets: ReportDataset[];
  /** Older evaluations of the models shown that are no longer kept (history limit) or left out of the report. */
  dropped: number;
  /** Comparisons on the person's own questions that name the model, newest first. */
  questionComparisons: ReportQuestionComparison[];
}

// ---- host -> page ----------------------------------------------------------------------------------------------

export type HostToReport = { type: 'report'; view: ReportView };

/** What the page keeps with setState, and what the serializer hands back after a reload. */
export interface ReportPanelState {
  modelName: string;
  addedModels: string[];
}

// ---- page -> host ----------------------------------------------------------------------------------------------

export type ExportFormat = 'markdown' | 'csv';

export type ReportToHost =
  { type: 'ready' } | { type: 'evaluateBase'; datasetId: number } | { type: 'addModel' } | { type: 'export'; format: ExportFormat };

const REPORT_CHECKS: Record<ReportToHost['type'], Check> = {
  ready: exactFields({ type: literal('ready') }),
  addModel: exactFields({ type: literal('addModel') }),
  evaluateBase: exactFields({ type: literal('evaluateBase'), datasetId: num(0, REPORT_LIMITS.datasetRows - 1, true) }),
  export: exactFields({ type: literal('export'), format: literal('markdown', 'csv') }),
};

/** Why `x` is not a valid page -> host message (for the log), or undefined when it is valid. */
export function reportMessageProblem(x: unknown): string | undefined {
  return messageProblem(REPORT_CHECKS, x);
}

export function isReportMessage(x: unknown): x is ReportToHost {
  return reportMessageProblem(x) === undefined;
}

function isModelName(x: unknown): x is string {
  return typeof x === 'string' && x.trim() !== '' && x.length <= REPORT_LIMITS.modelNameChars;
}

/** Checks the state a restored panel hands back (the page wrote it, but VS Code stored it on disk in between). */
export function isReportPanelState(x: unknown): x is ReportPanelState {
  return (
    isRecord(x) &&
    isModelName(x.modelName) &&
    Array.isArray(x.addedModels) &&
    x.addedModels.length <= REPORT_LIMITS.addedModels &&
    x.addedModels.every(isModelName)
  );
}

/** The page's cheap check of what it receives: only the extension can post into its webview. */
export function isHostReportMessage(x: unknown): x is HostToReport {
  return isRecord(x) && x.type === 'report' && isRecord(x.view) && typeof x.view.modelName === 'string' && Array.isArray(x.view.datasets);
}
