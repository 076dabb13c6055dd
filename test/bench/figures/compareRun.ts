// Figure 15: a comparison's run (issue 37). Its wall time for questions × 2 models at concurrency 4, the emulator
// answering each in a fixed time, against the ideal (requests × one answer's time ÷ 4), that answer time measured
// alone in the same run; and its peak RSS holding a 10,000-question set (parsed, run, every result kept and read back)
// over the same process's idle RSS just before. The run is the extension's own (compareRun.ts, no vscode), driven as
// test/unit/compareRun.test.ts drives it: ServiceClient against the emulator, in a process of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { collectInference, ServiceClient } from '../../../src/api/client';
import { runComparison, type Infer } from '../../../src/features/evaluate/compare/compareRun';
import { ComparisonLog, type ComparisonSpec } from '../../../src/features/evaluate/compare/comparisonLog';
import { parseQuestionSet } from '../../../src/features/evaluate/compare/questionSet';
import { EmulatorProcess } from '../emulatorProcess';
import { bySize, type FigureOptions } from '../figure';
import { resetPeak, rssNow, rssPeak, sampleRss } from '../memory';
import { runsTable, type FigureResult } from '../report';
import { fmt, MiB, mib, summarize } from '../stats';

const KEY = 'demo-key';
const MODELS = ['oss-reasoner-70b', 'oss-reasoner-8b'];
const KNOBS = { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0 };
const CONCURRENCY = 4;
const TIME_GOAL = 1.15;
const MEMORY_GOAL = 64 * MiB;

/** A JSONL question set of `n` items, as a person's file would hold it. */
function questionFile(n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    lines.push(
      JSON.stringify({ question: `Question ${i}: what does clause ${i % 97} of the supplier contract require?`, expected: `${i}` }),
    );
  }
  return lines.join('\n');
}

function specOf(id: string, text: string): ComparisonSpec {
  return {
    id,
    setName: 'questions.jsonl',
    createdAt: Date.now(),
    models: MODELS,
    scoring: 'normalized',
    knobs: KNOBS,
    items: parseQuestionSet(text, 'jsonl').items,
  };
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const questions = bySize(options, { full: 500, quick: 500, tiny: 20 });
  const answerMs = bySize(options, { full: 200, quick: 50, tiny: 50 });
  const singles = bySize(options, { full: 9, quick: 5, tiny: 1 });
  const memoryQuestions = bySize(options, { full: 10_000, quick: 10_000, tiny: 200 });
  const root = mkdtempSync(path.join(os.tmpdir(), 'hr-bench-compare-'));
  const em = await EmulatorProcess.start({ tokenIntervalMs: 0, answerDelayMs: answerMs });
  try {
    const client = new ServiceClient({ baseUrl: em.url, apiKey: KEY });
    const infer: Infer = (r, signal) => collectInference(client.infer({ ...r, ...KNOBS, stream: false }, { signal }));
    const once = async (model: string) => {
      const t0 = performance.now();
      await infer({ modelName: model, prompt: 'warm-up' }, new AbortController().signal);
      return performance.now() - t0;
    };

    // The reference: one answer alone, the same client and emulator (HTTP and the client's own cost included).
    await once(MODELS[0]!);
    const single: number[] = [];
    for (let i = 0; i < singles; i++) for (const m of MODELS) single.push(await once(m));
    const oneAnswer = summarize(single).median;

    const timed = ComparisonLog.create(root, specOf('timed', questionFile(questions)));
    const requests = questions * MODELS.length;
    const t0 = performance.now();
    const result = await runComparison({ log: timed, infer, concurrency: CONCURRENCY });
    const wall = performance.now() - t0;
    if (result.sent !== requests || result.failed !== 0 || timed.entries().size !== requests) {
      throw new Error(`the timed run sent ${result.sent}, failed ${result.failed}, kept ${timed.entries().size} of ${requests}`);
    }
    const ideal = (requests * oneAnswer) / CONCURRENCY;
    const nominal = (requests * answerMs) / CONCURRENCY;

    // Memory: answers at once (no delay, tokens back to back), so the whole set runs in seconds.
    await em.configure({ answerDelayMs: 0 });
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const idle = rssNow();
    const heapIdle = process.memoryUsage().heapUsed;
    const exactPeak = resetPeak();
    const sampler = sampleRss(20);
    const m0 = performance.now();
    const big = ComparisonLog.create(root, specOf('held', questionFile(memoryQuestions)));
    const bigResult = await runComparison({ log: big, infer, concurrency: CONCURRENCY });
    const held = big.entries();
    const memoryMs = performance.now() - m0;
    const sampled = sampler.stop();
    const peak = Math.max(exactPeak ? (rssPeak() ?? 0) : 0, sampled);
    const heapHeld = process.memoryUsage().heapUsed;
    if (bigResult.failed !== 0 || held.size !== memoryQuestions * MODELS.length) {
      throw new Error(`the held run failed ${bigResult.failed} and kept ${held.size} of ${memoryQuestions * MODELS.length}`);
    }
    const growth = peak - idle;

    const timeRatio = wall / ideal;
    const rows = [
      {
        figure: `15. Comparison run, ${questions} questions × ${MODELS.length} models at concurrency ${CONCURRENCY}, each answered in ${answerMs} ms: wall time`,
        subject: `${fmt(wall / 1000)} s`,
        reference: `${fmt(ideal / 1000)} s ideal (${requests} × ${fmt(oneAnswer, 1)} ms one answer alone ÷ ${CONCURRENCY})`,
        ratio: fmt(timeRatio),
        spread: `one answer alone ${fmt(summarize(single).min, 1)}–${fmt(summarize(single).max, 1)} ms over ${single.length}; against the nominal ${fmt(nominal / 1000)} s: ${fmt(wall / nominal)}`,
        goal: `≤ ${TIME_GOAL}× ideal`,
        met: timeRatio <= TIME_GOAL,
      },
      {
        figure: `15. Comparison run, ${memoryQuestions.toLocaleString('en-US')}-question set parsed, run (answers at once) and every result kept and read back: peak RSS over idle`,
        subject: mib(growth),
        reference: `${mib(idle)} idle RSS of the same process just before`,
        ratio: fmt(growth / MEMORY_GOAL),
        spread: `peak by ${exactPeak ? 'VmHWM (reset before) and ' : ''}20 ms sampling; heap used ${mib(heapIdle)} → ${mib(heapHeld)} after; ${fmt(memoryMs / 1000)} s for ${held.size.toLocaleString('en-US')} requests`,
        goal: `≤ ${mib(MEMORY_GOAL)} over idle`,
        met: growth <= MEMORY_GOAL,
      },
    ];
    const section = [
      '## 15. Comparison run',
      '',
      runsTable(
        ['Run', 'Requests', 'Wall s', 'Ideal s', 'Ratio', 'One answer alone ms (median)'],
        [
          [
            `${questions} × ${MODELS.length} at ${CONCURRENCY}`,
            requests,
            fmt(wall / 1000),
            fmt(ideal / 1000),
            fmt(timeRatio),
            fmt(oneAnswer, 1),
          ],
        ],
      ),
      '',
      runsTable(
        ['Set', 'Requests', 'Idle RSS', 'Peak RSS', 'Growth', 'Heap used before → after'],
        [[memoryQuestions, held.size, mib(idle), mib(peak), mib(growth), `${mib(heapIdle)} → ${mib(heapHeld)}`]],
      ),
    ].join('\n');
    return { rows, section };
  } finally {
    await em.close();
    rmSync(root, { recursive: true, force: true });
  }
}
