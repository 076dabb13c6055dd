// Runs a comparison: every question to every model, then the judge's requests, at most `concurrency` at once. Each
// request's end is appended to the comparison's log as it comes (comparisonLog.ts), and what to send is worked out
// from the log: so a cancel, a reload or a killed process loses no finished request, and running again (Resume) sends
// only what is missing. A failure is kept with the service's words and sent again only when `retryFailed` asks. The
// client already sleeps the waits a rate limit asks for (http.ts); when it gives up on one, every worker here pauses
// for the wait the service named before sending again, and the request goes back in line (a few times at most).
// A run holds its comparison (comparisonHold.ts): a second run of it, here or in another window, is refused before it
// reads the log or sends anything.
// No vscode: inference is handed in, so plain mocha runs it against the emulator.
import { ApiError } from '../../../api/errors';
import { redact } from '../../../api/redact';
import { mapLimited } from '../../../util/mapLimited';
import { holdComparison } from './comparisonHold';
import { entryKey, kept, withoutTexts, type ComparisonLog, type ComparisonSpec, type Entry } from './comparisonLog';
import { judgePrompt, pairwisePrompt, DEFAULT_JUDGE_PROMPT, DEFAULT_PAIRWISE_PROMPT } from './judging';

export const DEFAULT_COMPARE_CONCURRENCY = 4;
/** How often one request goes back in line after the service refused it for its rate. */
const MAX_RATE_RETRIES = 3;
/** The pause after a rate refusal that named no wait. */
const DEFAULT_RATE_PAUSE_MS = 5_000;

export type Infer = (request: { modelName: string; prompt: string }, signal: AbortSignal) => Promise<{ answer: string; reasoning: string }>;

export interface RunOptions {
  log: ComparisonLog;
  infer: Infer;
  concurrency?: number;
  signal?: AbortSignal;
  /** Send again the requests that failed (otherwise they stay failed). */
  retryFailed?: boolean;
  /** Hears when the hold could be taken in this window only (comparisonHold.ts). */
  warn?: (message: string) => void;
  /**
   * After each request ends: how many of all are done (failed ones count as done), and how many of all failed so far
   * (those kept failed from before and not sent again, and this run's).
   */
  onProgress?: (done: number, total: number, failed: number) => void;
  now?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface RunResult {
  /** Requests sent in this run. */
  sent: number;
  /** Requests that failed in this run. */
  failed: number;
  cancelled: boolean;
}

interface Request {
  key: Pick<Entry, 'kind' | 'item' | 'model' | 'order'>;
  prompt: () => string | undefined;
  modelName: string;
}

/** How many requests a comparison makes in all: answers, then the judge's. */
export function requestCounts(spec: Pick<ComparisonSpec, 'items' | 'models' | 'scoring'>): { answers: number; judge: number } {
  const answers = spec.items.length * spec.models.length;
  const withExpected = spec.items.filter((i) => i.expected !== undefined).length;
  const judge =
    spec.scoring === 'judge'
      ? withExpected * spec.models.length
      : spec.scoring === 'pairwise'
        ? spec.items.length * (spec.models.length - 1) * 2
        : 0;
  return { answers, judge };
}

/** Each request of the comparison, answers first; a judge's prompt is made from the log when its turn comes. */
function allRequests(
  spec: ComparisonSpec,
  answerOf: (item: number, model: string) => string | undefined,
): { answers: Request[]; judge: Request[] } {
  const answers: Request[] = [];
  const judge: Request[] = [];
  spec.items.forEach((item, i) => {
    for (const model of spec.models) {
      answers.push({ key: { kind: 'answer', item: i, model }, modelName: model, prompt: () => item.question });
    }
    if (spec.scoring === 'judge' && item.expected !== undefined) {
      for (const model of spec.models) {
        judge.push({
          key: { kind: 'judge', item: i, model },
          modelName: spec.judgeModel!,
          prompt: () => {
            const answer = answerOf(i, model);
            return answer === undefined
              ? undefined
              : judgePrompt(spec.judgePrompt ?? DEFAULT_JUDGE_PROMPT, item.question, item.expected!, answer);
          },
        });
      }
    }
    if (spec.scoring === 'pairwise') {
      const subject = spec.models[0]!;
      for (const other of spec.models.slice(1)) {
        for (const order of ['first', 'second'] as const) {
          judge.push({
            key: { kind: 'judge', item: i, model: other, order },
            modelName: spec.judgeModel!,
            prompt: () => {
              const mine = answerOf(i, subject);
              const theirs = answerOf(i, other);
              if (mine === undefined || theirs === undefined) return undefined;
              const template = spec.judgePrompt ?? DEFAULT_PAIRWISE_PROMPT;
              return order === 'first'
                ? pairwisePrompt(template, item.question, mine, theirs)
                : pairwisePrompt(template, item.question, theirs, mine);
            },
          });
        }
      }
    }
  });
  return { answers, judge };
}

const defaultSleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/** Runs the comparison; a ComparisonRunningError, before anything is sent, when it runs already. */
export async function runComparison(options: RunOptions): Promise<RunResult> {
  const hold = await holdComparison(options.log.dir, options.warn);
  try {
    return await runHeld(options);
  } finally {
    await hold.release();
  }
}

async function runHeld(options: RunOptions): Promise<RunResult> {
  const { log } = options;
  const spec = log.spec;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const signal = options.signal ?? new AbortController().signal;
  // What the run holds of each finished request: whether it failed, and an answer's text only where a judge will read
  // it (a 10,000-question set's answers are tens of MiB, which the report reads from the log when it needs them).
  const judged = spec.scoring === 'judge' || spec.scoring === 'pairwise';
  const held = (e: Entry): Entry =>
    judged && e.kind === 'answer' && e.text !== undefined ? { ...withoutTexts(e), text: e.text } : withoutTexts(e);
  const done = log.entries({ texts: judged });
  if (judged) for (const [key, e] of done) done.set(key, held(e));
  const answerOf = (item: number, model: string) => {
    const e = done.get(entryKey({ kind: 'answer', item, model }));
    return e && e.error === undefined ? e.text : undefined;
  };
  const { answers, judge } = allRequests(spec, answerOf);
  const total = answers.length + judge.length;
  const needed = (r: Request) => {
    const e = done.get(entryKey(r.key));
    return e === undefined || (e.error !== undefined && options.retryFailed === true);
  };
  let finished = total - [...answers, ...judge].filter(needed).length;
  let sent = 0;
  let failed = 0;
  // Failures kept from an earlier run stay failed unless this run sends them again.
  const failedBefore = options.retryFailed === true ? 0 : [...done.values()].filter((e) => e.error !== undefined).length;
  let pausedUntil = 0;

  const record = (entry: Entry) => {
    log.append(entry);
    // Only a judge's prompt reads what this run finished (answerOf): without one, the log alone keeps it.
    if (judged) done.set(entryKey(entry), held(entry));
    finished++;
    if (entry.error !== undefined) failed++;
    options.onProgress?.(finished, total, failedBefore + failed);
  };

  const send = async (r: Request): Promise<void> => {
    for (let tries = 0; ; tries++) {
      if (signal.aborted) return;
      const wait = pausedUntil - now();
      if (wait > 0) await sleep(wait, signal);
      if (signal.aborted) return;
      const prompt = r.prompt();
      // A judge request whose answers failed is not sent: the item is unscored until its answers are retried.
      if (prompt === undefined) return;
      sent++;
      try {
        const { answer, reasoning } = await options.infer({ modelName: r.modelName, prompt }, signal);
        record({ ...r.key, text: kept(answer), ...(reasoning && { reasoning: kept(reasoning) }), at: now() });
        return;
      } catch (error) {
        // A cancelled request is not a finished one: it is simply missing, and Resume sends it.
        if (signal.aborted) return;
        if (error instanceof ApiError && error.kind === 'rateLimit' && tries < MAX_RATE_RETRIES) {
          pausedUntil = Math.max(pausedUntil, now() + (error.retryAfterMs ?? DEFAULT_RATE_PAUSE_MS));
          continue;
        }
        const words = redact(error instanceof Error ? error.message : String(error)).slice(0, 2_000);
        record({ ...r.key, error: words || 'Failed.', at: now() });
        return;
      }
    }
  };

  options.onProgress?.(finished, total, failedBefore);
  const limit = Math.max(1, options.concurrency ?? DEFAULT_COMPARE_CONCURRENCY);
  // Answers first: a judge's request needs both of its answers in the log.
  await mapLimited(answers.filter(needed), limit, send);
  await mapLimited(judge.filter(needed), limit, send);
  return { sent, failed, cancelled: signal.aborted };
}
