// `report <model>`: the model against its base on each dataset both were evaluated on, with the 95 % intervals and
// the verdict, computed as the extension's report computes them (reportView.ts over the job records, statistics.ts):
// from the evaluations kept in the state file. `--require-better` makes it a check for pipelines: exit 1 unless the
// model is better than its base (the interval of the difference above 0) on every dataset shown.
import { buildReportView } from '../../features/evaluate/report/host/reportView';
import type { ReportComparison, ReportEvaluation } from '../../features/evaluate/report/protocol';
import type { CommandContext } from '../context';
import { CliError, EXIT } from '../exitCodes';

export interface ReportOptions {
  model: string;
  dataset?: string;
  base?: string;
  requireBetter: boolean;
}

interface EvaluationJson {
  correct: number;
  total: number;
  accuracy: number;
  lower?: number;
  upper?: number;
  judgeModel?: string;
  jobId: string;
}

export interface ReportDatasetJson {
  dataset: string;
  model: EvaluationJson | null;
  base: EvaluationJson | null;
  comparison: { estimate: number; lower: number; upper: number; verdict: string; judgesDiffer: boolean } | null;
}

export async function reportCommand(ctx: CommandContext, options: ReportOptions): Promise<number> {
  const records = ctx.jobs.list();
  const listedBase = options.base ?? (await baseListed(ctx, options.model));
  const view = buildReportView({ records, modelName: options.model, ...(listedBase !== undefined && { listedBase }) });
  const rows = view.datasets.filter((d) => options.dataset === undefined || d.datasetName === options.dataset);
  if (options.dataset !== undefined && rows.length === 0) {
    throw new CliError(
      `No finished evaluation of ${options.model} on ${options.dataset} is kept here: run evaluate ${options.model} ${options.dataset} --wait first.`,
      EXIT.failed,
    );
  }
  const datasets: ReportDatasetJson[] = rows.map((d) => {
    const mine = d.columns[0]?.evaluations[0];
    const base = d.columns.find((c) => c.role === 'base')?.evaluations[0];
    const comparison = d.comparisons.find((c) => c.role === 'base');
    return { dataset: d.datasetName, model: evaluationJson(mine), base: evaluationJson(base), comparison: comparisonJson(comparison) };
  });
  const better = datasets.length > 0 && datasets.every((d) => d.comparison?.verdict === 'better');
  const lines = [`${view.modelName}${view.baseModel ? ` against its base ${view.baseModel}` : ' (no base model known)'}`];
  if (datasets.length === 0) lines.push(`No finished evaluation of ${view.modelName} is kept here.`);
  for (const d of datasets) lines.push(datasetLine(d, view.baseModel));
  ctx.out.result(lines.join('\n'), {
    model: view.modelName,
    ...(view.baseModel !== undefined && { baseModel: view.baseModel }),
    datasets,
    better,
  });
  if (options.requireBetter && !better) {
    ctx.out.note(`${view.modelName} is not shown to be better than its base${options.dataset ? ` on ${options.dataset}` : ''}.`);
    return EXIT.failed;
  }
  return EXIT.done;
}

async function baseListed(ctx: CommandContext, model: string): Promise<string | undefined> {
  const recorded = ctx.jobs.list().some((r) => r.kind === 'finetune' && r.modelName === model && r.baseModel !== undefined);
  if (recorded) return undefined;
  const models = await ctx.connection.client.listModels({ signal: ctx.signal, interactive: true });
  return models.find((m) => m.name === model)?.baseModel;
}

function evaluationJson(e: ReportEvaluation | undefined): EvaluationJson | null {
  if (!e) return null;
  return {
    correct: e.correct,
    total: e.total,
    accuracy: e.accuracy,
    ...(e.lower !== undefined && { lower: e.lower }),
    ...(e.upper !== undefined && { upper: e.upper }),
    ...(e.judgeModel !== undefined && { judgeModel: e.judgeModel }),
    jobId: e.jobId,
  };
}

function comparisonJson(c: ReportComparison | undefined): ReportDatasetJson['comparison'] {
  if (!c || c.estimate === undefined || c.lower === undefined || c.upper === undefined || c.verdict === undefined) return null;
  return { estimate: c.estimate, lower: c.lower, upper: c.upper, verdict: c.verdict, judgesDiffer: c.judgesDiffer };
}

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;
const points = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`;

function evaluationText(e: EvaluationJson | null): string {
  if (!e) return 'not evaluated';
  const interval = e.lower !== undefined && e.upper !== undefined ? `, 95% CI ${percent(e.lower)} to ${percent(e.upper)}` : '';
  return `${percent(e.accuracy)} (${e.correct}/${e.total}${interval})`;
}

function datasetLine(d: ReportDatasetJson, baseModel: string | undefined): string {
  const head = `${d.dataset}: ${evaluationText(d.model)}`;
  if (!baseModel) return head;
  const vs = `${head} against ${evaluationText(d.base)}`;
  if (!d.comparison) return d.base ? vs : `${vs}: evaluate ${baseModel} on ${d.dataset} to compare`;
  const c = d.comparison;
  const judges = c.judgesDiffer ? ' (judged by different models)' : '';
  return `${vs}: ${points(c.estimate)} points (95% CI ${points(c.lower)} to ${points(c.upper)}): ${c.verdict}${judges}`;
}
