// Figure 11: reasoning latency in the playground, beside the answer's. The same harness as figure 3 (latency.ts: VS Code's
// server build in headless Chromium, the helper extension, the emulator in this process at 2,000 tokens/s): each run the
// model writes numbered reasoning words (r000000, r000001…) and then an answer-shaped text of numbered words, in one of
// the three forms a service sends reasoning in (its own SSE event type, a `reasoning` field, inline `<think>` tags
// opening the answer). The emulator records when it writes each token; the page's observer seam logs each frame that
// lays out the Thinking section (`reasoningRendered`, with its length) and each frame of the answer (`frameRendered`).
// A reasoning token's latency is the time of the first frame whose Thinking section holds it minus its write time, on
// the epoch clock of both sides; the reference is the answer tokens of the same runs, measured the same way.
import * as os from 'node:os';
import type { Frame } from 'playwright-core';
import { OBSERVER_GLOBAL } from '../../../src/features/playground/latencyObserver';
import { inlineReasoning, tokensOf } from '../../service/inference';
import type { ReasoningForm } from '../../service/types';
import { eventually } from '../../e2e/workbench';
import { bySize, notMeasuredTiny, type FigureOptions } from '../figure';
import { runsTable, type FigureResult } from '../report';
import { fmt } from '../stats';
import {
  answerText,
  ASKED_RATE,
  checkClock,
  checkPlaygroundHarness,
  dist,
  distCells,
  openPlaygroundBench,
  percentile,
  PROMPT,
  type Dist,
  type PlaygroundBench,
} from './latency';

/** One animation frame: reasoning may trail the answer's latency by at most this much. */
const GOAL_OVER_ANSWER_MS = 16;
const FORMS: readonly Exclude<ReasoningForm, 'none'>[] = ['event', 'field', 'inline'];
const FORM_TITLES: Record<(typeof FORMS)[number], string> = {
  event: 'its own SSE event type',
  field: 'a reasoning field',
  inline: 'inline `<think>` tags',
};
const REASONING_LINE_WORDS = 60;
/** The run's first tokens: written while the request, the pane's start and the Thinking section's first layout settle. */
const HEAD_TOKENS = 100;
const LOG = '__hrReasoningLog';

interface FrameStamp {
  runId: string;
  renderedAt: number;
  chars: number;
}
interface PageLog {
  reasoning: FrameStamp[];
  answer: FrameStamp[];
  /** Time spent in each frame's render while no answer text had come (the Thinking section's cost). */
  thinkingRenderMs: number[];
}

/** Numbered reasoning words, a line break every 60: plain text, as the Thinking section shows it. */
function reasoningText(words: number): string {
  const lines: string[] = [];
  for (let i = 0; i < words; i += REASONING_LINE_WORDS) {
    const line: string[] = [];
    for (let k = i; k < Math.min(words, i + REASONING_LINE_WORDS); k++) line.push(`r${String(k).padStart(6, '0')}`);
    lines.push(line.join(' '));
  }
  return lines.join('\n');
}

async function resetLog(content: Frame): Promise<void> {
  await content.evaluate(
    ([observerKey, logKey]) => {
      const w = window as unknown as Record<string, unknown>;
      const log: PageLog = { reasoning: [], answer: [], thinkingRenderMs: [] };
      w[logKey] = log;
      w[observerKey] = {
        reasoningRendered: (runId: string, chars: number) => log.reasoning.push({ runId, renderedAt: performance.now(), chars }),
        frameRendered: (runId: string, chars: number, startedAt: number) => {
          const renderedAt = performance.now();
          if (chars === 0) log.thinkingRenderMs.push(renderedAt - startedAt);
          log.answer.push({ runId, renderedAt, chars });
        },
      };
    },
    [OBSERVER_GLOBAL, LOG] as const,
  );
}

/** Which part of the shown text each streamed token ends in, and where: the emulator's tokens in write order. */
function tokenMap(
  form: (typeof FORMS)[number],
  reasoning: string,
  answer: string,
): { kind: 'reasoning' | 'answer' | 'tag'; end: number }[] {
  if (form !== 'inline') {
    const out: { kind: 'reasoning' | 'answer'; end: number }[] = [];
    let end = 0;
    for (const t of tokensOf(reasoning)) out.push({ kind: 'reasoning', end: (end += t.length) });
    end = 0;
    for (const t of tokensOf(answer)) out.push({ kind: 'answer', end: (end += t.length) });
    return out;
  }
  // `<think>\n` reasoning `\n</think>\n\n` answer, in one text: a token's end in that text says where it lands.
  const raw = inlineReasoning(reasoning, answer);
  const reasoningStart = raw.indexOf(reasoning);
  const answerStart = raw.length - answer.length;
  if (tokensOf(raw).join('') !== raw) throw new Error("the emulator's tokens do not make up the text");
  let end = 0;
  return tokensOf(raw).map((t) => {
    end += t.length;
    if (end > reasoningStart && end <= reasoningStart + reasoning.length) return { kind: 'reasoning', end: end - reasoningStart };
    if (end > answerStart) return { kind: 'answer', end: end - answerStart };
    return { kind: 'tag', end: 0 };
  });
}

interface RunResult {
  reasoningTokens: number;
  answerTokens: number;
  rate: number;
  lost: number;
  reasoningFrames: number;
  /** Per frame while thinking: time in the page's render (the Thinking section's append and layout). */
  renderMs: number[];
  reasoning: number[];
  answer: number[];
  clockCheck: string;
}

async function oneRun(
  bench: PlaygroundBench,
  form: (typeof FORMS)[number],
  reasoningWords: number,
  answerWords: number,
): Promise<RunResult> {
  const { emu, pg } = bench;
  const reasoning = reasoningText(reasoningWords);
  const { text: answer } = answerText(answerWords, 'answer');
  emu.configure({ reasoning: form, reasoningText: reasoning, responseText: answer, recordTokenWrites: true });
  emu.tokenWrites.length = 0;
  const { content } = await pg.frames();
  await resetLog(content);
  await pg.prompt.fill(PROMPT);
  await pg.run.click();
  await eventually('the answer to finish', async () => ((await pg.status.innerText()) === 'Done.' ? true : undefined), 120_000, 100);
  // "Done." is painted before the frame that renders the last text: wait for that frame (if it never comes, the
  // tokens it would show count as lost).
  await eventually(
    'the last frame',
    async () =>
      (await content.evaluate(
        ([length, logKey]) => {
          const frames = (window as unknown as Record<string, PageLog>)[logKey]?.answer ?? [];
          return frames[frames.length - 1]?.chars === length;
        },
        [answer.length, LOG] as const,
      )) || undefined,
    10_000,
    50,
  ).catch(() => undefined);
  emu.configure({ recordTokenWrites: false });
  const writes = [...emu.tokenWrites];
  const { log, origin, shownReasoning } = await content.evaluate(
    (logKey) => ({
      log: (window as unknown as Record<string, PageLog | undefined>)[logKey],
      origin: performance.timeOrigin,
      shownReasoning: document.querySelector('[data-testid="thinking"]')?.textContent ?? '',
    }),
    LOG,
  );
  if (!log) throw new Error('the page kept no log of the run');
  const clockCheck = await checkClock(content);
  const runId = log.answer[log.answer.length - 1]?.runId ?? log.reasoning[log.reasoning.length - 1]?.runId;
  const reasoningFrames = log.reasoning.filter((f) => f.runId === runId && f.chars > 0);
  const answerFrames = log.answer.filter((f) => f.runId === runId && f.chars > 0);
  const map = tokenMap(form, reasoning, answer);
  if (writes.length !== map.length) throw new Error(`the emulator wrote ${writes.length} tokens, not ${map.length}`);
  if (shownReasoning !== reasoning) {
    const seen = new Set(shownReasoning.match(/r\d{6}/g) ?? []);
    const missing = reasoningWords - [...seen].length;
    throw new Error(`the Thinking section does not hold the reasoning as written (${missing} of ${reasoningWords} words missing)`);
  }
  const latency = { reasoning: [] as number[], answer: [] as number[] };
  const at = { reasoning: 0, answer: 0 };
  const frames = { reasoning: reasoningFrames, answer: answerFrames };
  let lost = 0;
  for (let i = 0; i < map.length; i++) {
    const token = map[i]!;
    if (token.kind === 'tag') continue;
    const list = frames[token.kind];
    while (at[token.kind] < list.length && list[at[token.kind]]!.chars < token.end) at[token.kind]++;
    const frame = list[at[token.kind]];
    if (!frame) {
      lost++;
      continue;
    }
    latency[token.kind].push(origin + frame.renderedAt - writes[i]!);
  }
  return {
    reasoningTokens: map.filter((t) => t.kind === 'reasoning').length,
    answerTokens: map.filter((t) => t.kind === 'answer').length,
    rate: (writes.length - 1) / ((writes[writes.length - 1]! - writes[0]!) / 1000),
    lost,
    reasoningFrames: reasoningFrames.length,
    renderMs: log.thinkingRenderMs,
    reasoning: latency.reasoning,
    answer: latency.answer,
    clockCheck,
  };
}

interface FormSummary {
  form: (typeof FORMS)[number];
  results: RunResult[];
  reasoning: Dist;
  answer: Dist;
  lost: number;
  p99Runs: { low: number; high: number; answerLow: number; answerHigh: number };
  rate: number;
}

function summarize(form: (typeof FORMS)[number], results: RunResult[]): FormSummary {
  const p99 = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      99,
    );
  const runP99 = results.map((r) => p99(r.reasoning)).sort((a, b) => a - b);
  const answerP99 = results.map((r) => p99(r.answer)).sort((a, b) => a - b);
  const rates = results.map((r) => r.rate).sort((a, b) => a - b);
  return {
    form,
    results,
    reasoning: dist(results.flatMap((r) => r.reasoning)),
    answer: dist(results.flatMap((r) => r.answer)),
    lost: results.reduce((n, r) => n + r.lost, 0),
    p99Runs: {
      low: runP99[0] ?? NaN,
      high: runP99[runP99.length - 1] ?? NaN,
      answerLow: answerP99[0] ?? NaN,
      answerHigh: answerP99[answerP99.length - 1] ?? NaN,
    },
    rate: rates[Math.floor(rates.length / 2)] ?? NaN,
  };
}

/** p50 of the first and of the last third of each run's values: does a frame cost more as the reasoning grows? */
function thirds(runs: number[][]): string {
  const third = (v: number[]) => Math.floor(v.length / 3);
  const early = runs.flatMap((v) => v.slice(0, third(v)));
  const late = runs.flatMap((v) => v.slice(v.length - third(v)));
  return `${fmt(dist(early).p50)} / ${fmt(dist(late).p50)}`;
}

function section(summaries: FormSummary[], load: number[]): string {
  return [
    '## 11. Reasoning latency in the playground',
    '',
    `One-minute load average during the runs: ${fmt(Math.min(...load))}–${fmt(Math.max(...load))}.`,
    '',
    runsTable(
      ['Reasoning sent as', 'Part', 'Count', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'],
      summaries.flatMap((m) => [
        [
          FORM_TITLES[m.form],
          '**reasoning: write → shown in the Thinking section**',
          m.results.reduce((n, r) => n + r.reasoningTokens, 0),
          ...distCells(m.reasoning),
        ],
        ['', 'answer: write → shown (the same runs)', m.results.reduce((n, r) => n + r.answerTokens, 0), ...distCells(m.answer)],
        [
          '',
          `rendering one frame while thinking (first/last third p50 ${thirds(m.results.map((r) => r.renderMs))} ms)`,
          `${m.results.reduce((n, r) => n + r.renderMs.length, 0)} frames`,
          ...distCells(dist(m.results.flatMap((r) => r.renderMs))),
        ],
      ]),
    ),
    '',
    runsTable(
      [
        'Reasoning sent as',
        'Run',
        'Reasoning tokens',
        'Answer tokens',
        'Sent/s',
        'Thinking frames',
        'Reasoning p50/p99 ms',
        'Answer p50/p99 ms',
        'Lost',
        'Clock check',
      ],
      summaries.flatMap((m) =>
        m.results.map((r, i) => {
          const d = dist(r.reasoning);
          const a = dist(r.answer);
          return [
            FORM_TITLES[m.form],
            i + 1,
            r.reasoningTokens,
            r.answerTokens,
            fmt(r.rate, 0),
            r.reasoningFrames,
            `${fmt(d.p50)} / ${fmt(d.p99)}`,
            `${fmt(a.p50)} / ${fmt(a.p99)}`,
            r.lost,
            r.clockCheck,
          ];
        }),
      ),
    ),
  ].join('\n');
}

/**
 * A tiny run: each form streamed once by the bench's emulator, no VS Code (see checkPlaygroundHarness); the emulator
 * must write the tokens the figure maps to the Thinking section and the answer.
 */
async function tiny(reasoningWords: number, answerWords: number): Promise<FigureResult> {
  const rows = [];
  for (const form of FORMS) {
    const reasoning = reasoningText(reasoningWords);
    const { text: answer } = answerText(answerWords, 'answer');
    const expected = tokenMap(form, reasoning, answer).length;
    const written = await checkPlaygroundHarness((emu) =>
      emu.configure({ reasoning: form, reasoningText: reasoning, responseText: answer }),
    );
    if (written !== expected) throw new Error(`${form}: the emulator recorded ${written} token writes, not ${expected}`);
    rows.push(
      notMeasuredTiny(
        `11. Reasoning latency in the playground, reasoning as ${FORM_TITLES[form]}`,
        `set-up, helper extension, ${expected} tokens streamed and their writes recorded`,
        `p99 ≤ the answer's + ${GOAL_OVER_ANSWER_MS} ms, no token lost`,
      ),
    );
  }
  return { rows, section: '## 11. Reasoning latency in the playground\n\nTiny run: the harness checked without VS Code.' };
}

export async function run(options: FigureOptions): Promise<FigureResult> {
  const runs = bySize(options, { full: 5, quick: 1, tiny: 0 });
  const reasoningWords = bySize(options, { full: 4_000, quick: 500, tiny: 30 });
  const answerWords = bySize(options, { full: 2_000, quick: 200, tiny: 20 });
  if (options.size === 'tiny') return tiny(reasoningWords, answerWords);
  const results: Record<(typeof FORMS)[number], RunResult[]> = { event: [], field: [], inline: [] };
  const load: number[] = [];
  const bench = await openPlaygroundBench();
  try {
    for (const form of FORMS) await oneRun(bench, form, 300, 100); // first render of each path, JIT
    load.push(os.loadavg()[0]!);
    // The forms take turns, so a change in the machine's load touches all alike.
    for (let r = 0; r < runs; r++) {
      for (const form of FORMS) {
        const res = await oneRun(bench, form, reasoningWords, answerWords);
        const d = dist(res.reasoning);
        const a = dist(res.answer);
        console.log(
          `[reasoning] ${form} run ${r + 1}: reasoning p50 ${fmt(d.p50)} ms, p99 ${fmt(d.p99)} ms, max ${fmt(d.max)} ms; ` +
            `answer p50 ${fmt(a.p50)} ms, p99 ${fmt(a.p99)} ms; ${res.lost} lost, ${fmt(res.rate, 0)} tokens/s, ${res.reasoningFrames} thinking frames; ` +
            `render ms while thinking, first/last third p50 ${thirds([res.renderMs])}; ` +
            `reasoning p99 of the first ${HEAD_TOKENS} tokens ${fmt(dist(res.reasoning.slice(0, HEAD_TOKENS)).p99)} ms, of the rest ${fmt(dist(res.reasoning.slice(HEAD_TOKENS)).p99)} ms`,
        );
        results[form].push(res);
        load.push(os.loadavg()[0]!);
      }
    }
  } finally {
    await bench.close();
  }
  const summaries = FORMS.map((form) => summarize(form, results[form]));
  const rows = summaries.map((m) => {
    const tokens = m.results.reduce((n, r) => n + r.reasoningTokens, 0);
    return {
      figure:
        `11. Reasoning latency in the playground, reasoning as ${FORM_TITLES[m.form]} (${m.results.length} runs × ` +
        `${(m.results[0]?.reasoningTokens ?? 0).toLocaleString('en-US')} reasoning + ${(m.results[0]?.answerTokens ?? 0).toLocaleString('en-US')} answer tokens; ` +
        `asked ${fmt(ASKED_RATE, 0)} tokens/s, sent ${fmt(m.rate, 0)}/s; headless Chromium)`,
      subject: `p99 ${fmt(m.reasoning.p99)} ms, ${m.lost} of ${(tokens + m.results.reduce((n, r) => n + r.answerTokens, 0)).toLocaleString('en-US')} tokens lost`,
      reference: `p99 ${fmt(m.answer.p99)} ms answer tokens, same runs`,
      ratio: `${m.reasoning.p99 >= m.answer.p99 ? '+' : ''}${fmt(m.reasoning.p99 - m.answer.p99)} ms`,
      spread:
        `p50 ${fmt(m.reasoning.p50)} ms (answer ${fmt(m.answer.p50)}), max ${fmt(m.reasoning.max)} ms (answer ${fmt(m.answer.max)}); ` +
        `per-run p99 ${fmt(m.p99Runs.low)}–${fmt(m.p99Runs.high)} ms (answer ${fmt(m.p99Runs.answerLow)}–${fmt(m.p99Runs.answerHigh)})`,
      goal: `p99 ≤ the answer's + ${GOAL_OVER_ANSWER_MS} ms, no token lost`,
      met: m.lost === 0 && m.reasoning.p99 <= m.answer.p99 + GOAL_OVER_ANSWER_MS,
    };
  });
  return { rows, section: section(summaries, load) };
}
