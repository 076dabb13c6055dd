// Figure 7: the Models view with 10,000 models: the real ModelsTreeProvider (its getChildren for the root and each
// group, then getTreeItem for every row) over a fake service and job list, with a stub `vscode` module. And reading
// the 10,000-model answer by the service's known profile (modelListReader.ts, the path of every answer but the
// first) against JSON.parse of the same body, with the inference (the first answer's path) beside it.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { readAnswer } from '../../../src/api/answerReading';
import { readModelsByProfile } from '../../../src/api/modelListReader';
import { MODEL_LIST } from '../../../src/api/modelListReading';
import type { ModelInfo } from '../../../src/api/types';
import type { JobRecord } from '../../../src/jobs/jobRecord';
import type * as ModelsTreeModule from '../../../src/features/models/modelsTree';
import { bySize, type FigureOptions } from '../figure';
import { runsTable, type FigureResult } from '../report';
import { runNodeJson } from '../proc';
import { fmt, interleave, range, summarize } from '../stats';
import { installVscodeStub, TreeItem } from '../vscodeStub';

const GOAL_MS = 50;
/** Reading by a known profile, as a multiple of JSON.parse of the same body (issue 27). */
const GOAL_READ_RATIO = 2;
const SCOPE = 'http://127.0.0.1:1#bench';

function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** The model list as the emulator's default shape would decode: records with type, base model and date. */
function modelsBody(count: number): unknown {
  const r = rng(7);
  const models = [];
  for (let i = 0; i < count; i++) {
    const custom = r() < 0.5;
    const name = `${custom ? 'ft' : 'oss'}-${Math.floor(r() * 1e9).toString(36)}-${i}`;
    models.push(
      custom
        ? { model_name: name, type: 'custom', base_model: 'oss-reasoner-8b', created_at: new Date(1.7e12 + i * 6e4).toISOString() }
        : { model_name: name, type: 'base' },
    );
  }
  return { models };
}

function jobsFor(models: ModelInfo[], evaluations: number, finetunes: number): JobRecord[] {
  const r = rng(11);
  const jobs: JobRecord[] = [];
  const now = 1.7e12;
  for (let i = 0; i < evaluations; i++) {
    const m = models[Math.floor(r() * models.length)]!;
    const total = 50;
    const correct = Math.floor(r() * total);
    jobs.push({
      id: `ev-${i}`,
      kind: 'evaluation',
      scope: SCOPE,
      state: 'completed',
      createdAt: now + i,
      updatedAt: now + i,
      finishedAt: now + i,
      modelName: m.name,
      datasetName: 'squad',
      result: { datasetName: 'squad', modelName: m.name, correct, total, accuracy: correct / total, judgeModel: 'judge-1' },
    });
  }
  for (let i = 0; i < finetunes; i++) {
    const m = models[Math.floor(r() * models.length)]!;
    jobs.push({
      id: `ft-${i}`,
      kind: 'finetune',
      scope: SCOPE,
      state: i % 3 ? 'completed' : 'running',
      createdAt: now + i,
      updatedAt: now + i,
      modelName: m.name,
      baseModel: 'oss-reasoner-8b',
    });
  }
  return jobs;
}

/** The models listed: 10,000 (a tiny run: 100). */
const COUNT = 10_000;

/** Models, jobs, a fake service and the measurements, in this process (the vscode stub installed). */
export function prepare(count = COUNT) {
  installVscodeStub();
  const { ModelsTreeProvider } = createRequire(__filename)('../../../src/features/models/modelsTree') as typeof ModelsTreeModule;
  const body = JSON.stringify(modelsBody(count));
  const d0 = performance.now();
  const models = readAnswer(MODEL_LIST, JSON.parse(body), undefined, undefined).value;
  const decodeMs = performance.now() - d0;
  const jobs = jobsFor(models, Math.ceil(count / 10), Math.ceil(count / 50));
  const noop = () => ({ dispose() {} });
  const services = {
    context: {},
    log: { error() {}, warn() {}, info() {}, debug() {}, trace() {} },
    session: { onDidChange: noop, connect: async () => ({ client: { listModels: async () => models }, scope: SCOPE }) },
    jobs: { onDidChange: noop, list: () => jobs },
    local: { onDidChange: noop, hasDownload: () => false },
  };
  /** What VS Code asks of the provider when the view opens: root children, each group's children, every item. */
  const subject = async (): Promise<{ ms: number; rows: number }> => {
    const provider = new ModelsTreeProvider(services as unknown as Services);
    const t0 = performance.now();
    const roots = await provider.getChildren();
    let rows = 0;
    for (const root of roots) {
      provider.getTreeItem(root);
      for (const child of await provider.getChildren(root)) {
        provider.getTreeItem(child);
        rows++;
      }
    }
    const ms = performance.now() - t0;
    provider.dispose();
    return { ms, rows };
  };
  /** The least any provider does for 10,000 rows: one labelled TreeItem each. */
  const reference = async (): Promise<number> => {
    const t0 = performance.now();
    const items: TreeItem[] = [];
    for (const m of models) {
      const item = new TreeItem(m.name);
      item.id = `model:${m.name}`;
      item.contextValue = 'model';
      items.push(item);
    }
    const ms = performance.now() - t0;
    if (items.length !== count) throw new Error('unreachable');
    return ms;
  };
  return { ModelsTreeProvider, models, services, decodeMs, subject, reference, body };
}

/** Reading the parsed answer by its profile, JSON.parse of the same text, and inferring it (ms each, one run). */
function readingRuns(body: string, count: number) {
  const profile = readAnswer(MODEL_LIST, JSON.parse(body), undefined, undefined).profile;
  if (!profile) throw new Error(`no profile inferred from the ${count}-model answer`);
  const time = (f: () => unknown): number => {
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  };
  return {
    parse: async () => time(() => JSON.parse(body)),
    byProfile: async () => {
      const parsed = JSON.parse(body) as unknown;
      let read: unknown[] | undefined;
      const ms = time(() => (read = readModelsByProfile(parsed, profile)));
      if (read?.length !== count) throw new Error(`the profile read ${read?.length} models, expected ${count}`);
      return ms;
    },
    inferred: async () => {
      const parsed = JSON.parse(body) as unknown;
      return time(() => readAnswer(MODEL_LIST, parsed, undefined, undefined));
    },
  };
}

type Services = ConstructorParameters<typeof ModelsTreeModule.ModelsTreeProvider>[0];

/** One measurement in a fresh process (the first view open: nothing compiled yet); see listColdWorker.ts. */
async function coldRun(mode: 'subject' | 'reference', count: number): Promise<number> {
  return (await runNodeJson<{ ms: number }>('listColdWorker.js', { mode, count } satisfies ColdJob)).ms;
}

/** What listColdWorker.ts measures. */
export interface ColdJob {
  mode: 'subject' | 'reference';
  count: number;
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const runs = bySize(options, { full: 21, quick: 5, tiny: 1 });
  const coldRuns = bySize(options, { full: 7, quick: 3, tiny: 1 });
  const warmup = bySize(options, { full: 3, quick: 3, tiny: 0 });
  const count = bySize(options, { full: COUNT, quick: COUNT, tiny: 100 });
  const coldPairs = await interleave(
    coldRuns,
    () => coldRun('reference', count),
    () => coldRun('subject', count),
    0,
  );
  const { ModelsTreeProvider, services, decodeMs, subject, reference, body } = prepare(count);
  const reading = readingRuns(body, count);
  const byProfile = await interleave(runs, reading.parse, reading.byProfile, warmup);
  const inferred = await interleave(runs, reading.parse, reading.inferred, warmup);
  const bp = summarize(byProfile.subject);
  const bq = summarize(byProfile.ratios);
  const ip = summarize(inferred.subject);
  const iq = summarize(inferred.ratios);
  const parsed = summarize(byProfile.ref);
  const cold = await subject();
  if (cold.rows !== count) throw new Error(`the view showed ${cold.rows} rows, expected ${count}`);
  // The tooltip left out of getTreeItem comes when a row is hovered.
  const check = new ModelsTreeProvider(services as unknown as Services);
  const [group] = await check.getChildren();
  const [row] = await check.getChildren(group);
  if (!row) throw new Error('the view showed no rows');
  const hovered = check.resolveTreeItem(check.getTreeItem(row), row);
  // The tooltip is plain text (never markdown: the model's name comes from the service).
  if (row.type !== 'model' || typeof hovered.tooltip !== 'string' || !hovered.tooltip.includes(row.model.name)) {
    throw new Error('resolveTreeItem gave no tooltip with the model name');
  }
  check.dispose();
  const paired = await interleave(runs, reference, async () => (await subject()).ms, Math.min(warmup, 2));
  const s = summarize(paired.subject);
  const r = summarize(paired.ref);
  const q = summarize(paired.ratios);
  const cs = summarize(coldPairs.subject);
  const cr = summarize(coldPairs.ref);
  const cq = summarize(coldPairs.ratios);
  const rows = [
    {
      figure: `7. Models view, ${count.toLocaleString('en')} models, first open (fresh process, ${coldRuns} runs): children + tree items`,
      subject: `${fmt(cs.median)} ms`,
      reference: `${fmt(cr.median)} ms bare TreeItems`,
      ratio: fmt(cq.median),
      spread: range(cs, ' ms'),
      goal: `≤ ${GOAL_MS} ms`,
      met: cs.median <= GOAL_MS,
    },
    {
      figure: `7. Models view, ${count.toLocaleString('en')} models, again (warm, ${runs} runs)`,
      subject: `${fmt(s.median)} ms`,
      reference: `${fmt(r.median)} ms bare TreeItems`,
      ratio: fmt(q.median),
      spread: range(s, ' ms'),
      goal: `≤ ${GOAL_MS} ms`,
      met: s.median <= GOAL_MS,
    },
    {
      figure: `7. Reading the ${count.toLocaleString('en')}-model answer by its known profile (warm, ${runs} runs)`,
      subject: `${fmt(bp.median)} ms`,
      reference: `${fmt(parsed.median)} ms JSON.parse`,
      ratio: fmt(bq.median),
      spread: range(bp, ' ms'),
      goal: `≤ ${GOAL_READ_RATIO}x JSON.parse`,
      met: bq.median <= GOAL_READ_RATIO,
    },
    {
      figure: `7. Inferring its profile (the first answer of a service; warm, ${runs} runs)`,
      subject: `${fmt(ip.median)} ms`,
      reference: `${fmt(summarize(inferred.ref).median)} ms JSON.parse`,
      ratio: fmt(iq.median),
      spread: range(ip, ' ms'),
      goal: '(no goal: once per service)',
      met: undefined,
    },
  ];
  const section = [
    '## 7. Large lists',
    '',
    runsTable(
      ['Measure', 'ms'],
      [
        [
          `decoding the ${count.toLocaleString('en')}-model answer once (JSON.parse + readAnswer with MODEL_LIST, cold; not in the rows)`,
          fmt(decodeMs),
        ],
      ],
    ),
    '',
    runsTable(
      ['Pair', 'reference (ms)', 'subject (ms)', 'ratio'],
      paired.ref.map((ref, i) => [i + 1, fmt(ref), fmt(paired.subject[i]!), fmt(paired.ratios[i]!)]),
    ),
  ].join('\n');
  return { rows, section };
}
