// What one report panel shows, from the job records of one scope alone (so it is the same after a reload, and tested
// without vscode): the model's evaluations by dataset, its base's and any added model's on the same datasets beside
// them, and the model compared with each. The grouping and the statistics are comparison.ts and statistics.ts.
import { isActive, type JobRecord } from '../../../../jobs/jobRecord';
import { buildComparison, type EvaluationEntry, type ModelEvaluations } from '../../comparison';
import { compareProportions } from '../../statistics';
import { lineageOrigins } from '../../../../jobs/lineage';
import { redact } from '../../../../api/redact';
import type {
  ReportComparison,
  ReportLineage,
  ReportDataset,
  ReportEvaluation,
  ReportModelColumn,
  ReportQuestionComparison,
  ReportRole,
  ReportView,
} from '../protocol';

export interface ReportInput {
  /** One scope's records (JobStore.list(scope)). */
  records: readonly JobRecord[];
  modelName: string;
  /** Models the user added to the comparison, in the order added. */
  addedModels?: readonly string[];
  /** The base the service lists for the model, used when no finetune job here recorded one. */
  listedBase?: string;
  /** Evaluations of each model the history limit dropped (JobStore.droppedEvaluations). */
  droppedByModel?: Readonly<Record<string, number>>;
  /** The comparisons on the person's own questions that name the model (keptComparisons.ts), newest first. */
  questionComparisons?: readonly ReportQuestionComparison[];
}

export function buildReportView({
  records,
  modelName,
  addedModels = [],
  listedBase,
  droppedByModel = {},
  questionComparisons = [],
}: ReportInput): ReportView {
  const recorded = buildComparison(records, modelName);
  const comparison = recorded.base || listedBase === undefined ? recorded : buildComparison(records, modelName, { baseModel: listedBase });
  const baseModel = comparison.base?.modelName;
  const added = [...new Set(addedModels)].filter((m) => m !== modelName && m !== baseModel);
  const others: { name: string; role: Exclude<ReportRole, 'model'>; evaluations: ModelEvaluations }[] = [
    ...(comparison.base ? [{ name: comparison.base.modelName, role: 'base' as const, evaluations: comparison.base }] : []),
    ...added.map((name) => ({ name, role: 'added' as const, evaluations: buildComparison(records, name, { baseModel: name }).model })),
  ];
  const running = new Set(
    records
      .filter((r) => r.kind === 'evaluation' && isActive(r) && r.datasetName !== undefined)
      .map((r) => runningKey(r.modelName, r.datasetName!)),
  );
  const datasets = comparison.model.datasets.map(({ datasetName, evaluations }, id): ReportDataset => {
    const columns: ReportModelColumn[] = [
      column(modelName, 'model', evaluations, running.has(runningKey(modelName, datasetName))),
      ...others.map((o) =>
        column(
          o.name,
          o.role,
          o.evaluations.datasets.find((d) => d.datasetName === datasetName)?.evaluations ?? [],
          running.has(runningKey(o.name, datasetName)),
        ),
      ),
    ];
    const mine = evaluations[0];
    const comparisons = mine
      ? columns.slice(1).flatMap((c) => {
          const theirs = c.evaluations[0];
          return theirs ? [compare(mine, theirs, c.name, c.role as Exclude<ReportRole, 'model'>)] : [];
        })
      : [];
    const base = columns.find((c) => c.role === 'base');
    return { id, datasetName, columns, comparisons, canEvaluateBase: !!base && base.evaluations.length === 0 && !base.running };
  });
  const dropped = [modelName, ...others.map((o) => o.name)].reduce((sum, name) => sum + (droppedByModel[name] ?? 0), 0);
  const shownDropped = comparison.model.dropped + others.reduce((sum, o) => sum + o.evaluations.dropped, 0);
  const lineage = lineageOf(records, modelName);
  return {
    modelName,
    ...(baseModel !== undefined && { baseModel }),
    ...(lineage && { lineage }),
    addedModels: added,
    datasets,
    dropped: dropped + shownDropped,
    questionComparisons: [...questionComparisons],
  };
}

/**
 * The lineage of the finetune job here behind the model, as plain data (a copy: the view is posted to the page). Its
 * words were typed by people or came from the service: redacted here as the tooltips are, shown as text on the page.
 */
function lineageOf(records: readonly JobRecord[], modelName: string): ReportLineage | undefined {
  const job = lineageOrigins(records).get(modelName);
  const l = job?.lineage;
  if (!job || !l) return undefined;
  return {
    baseModel: redact(l.baseModel),
    files: l.files.map((f) => ({ name: redact(f.name), size: f.size, ...(f.sha256 !== undefined && { sha256: f.sha256 }) })),
    numQs: l.numQs,
    mode: redact(l.mode),
    useCase: redact(l.useCase),
    jobId: redact(l.jobId),
    startedAt: l.startedAt,
    ...(job.finishedAt !== undefined && { finishedAt: job.finishedAt }),
  };
}

function runningKey(modelName: string, datasetName: string): string {
  return JSON.stringify([modelName, datasetName]);
}

function column(name: string, role: ReportRole, evaluations: readonly EvaluationEntry[], running: boolean): ReportModelColumn {
  return { name, role, evaluations: evaluations.map(evaluationOf), running };
}

function evaluationOf(e: EvaluationEntry): ReportEvaluation {
  return {
    jobId: e.jobId,
    correct: e.correct,
    total: e.total,
    accuracy: e.accuracy,
    ...(e.interval && { lower: e.interval.lower, upper: e.interval.upper }),
    ...(e.judgeModel !== undefined && { judgeModel: e.judgeModel }),
    at: e.at,
  };
}

function compare(
  mine: ReportEvaluation,
  theirs: ReportEvaluation,
  otherModel: string,
  role: Exclude<ReportRole, 'model'>,
): ReportComparison {
  const difference = compareProportions(mine, theirs);
  const judgeUnknown = mine.judgeModel === undefined || theirs.judgeModel === undefined;
  return {
    otherModel,
    role,
    ...(difference && {
      estimate: difference.estimate,
      lower: difference.interval.lower,
      upper: difference.interval.upper,
      verdict: difference.verdict,
    }),
    judgesDiffer: !judgeUnknown && mine.judgeModel !== theirs.judgeModel,
    judgeUnknown,
  };
}
