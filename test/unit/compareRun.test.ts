// The comparison's run: what it keeps as each request ends, what Resume sends (only what is missing, after a cancel
// or after the process was killed), failures kept with the service's words, the pause a rate limit asks for, and the
// judges' verdicts as the summary reads them.
import { strict as assert } from 'node:assert';
import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { collectInference } from '../../src/api/client';
import { RateLimitError, ServerError } from '../../src/api/errors';
import { ComparisonLog, entryKey, type ComparisonSpec } from '../../src/features/evaluate/compare/comparisonLog';
import { requestCounts, runComparison, type Infer } from '../../src/features/evaluate/compare/compareRun';
import {
  comparisonRunning,
  ComparisonRunningError,
  holdComparison,
  removeComparisons,
} from '../../src/features/evaluate/compare/comparisonHold';
import { summarize } from '../../src/features/evaluate/compare/compareSummary';
import { clientFor, useEmulator } from './helpers';

const MODELS = ['oss-reasoner-70b', 'oss-reasoner-8b'];
const KNOBS = { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0 };

function spec(id: string, n: number, over: Partial<ComparisonSpec> = {}): ComparisonSpec {
  return {
    id,
    setName: 'questions.jsonl',
    createdAt: 1,
    models: MODELS,
    scoring: 'normalized',
    knobs: KNOBS,
    items: Array.from({ length: n }, (_, i) => ({ question: `Question number ${i}?`, expected: `${i}`, line: i + 1 })),
    ...over,
  };
}

/** Every request an Infer was handed, as "model|prompt". */
function recording(infer: Infer): Infer & { sent: string[] } {
  const sent: string[] = [];
  const f = (async (r, signal) => {
    sent.push(`${r.modelName}|${r.prompt}`);
    return infer(r, signal);
  }) as Infer & { sent: string[] };
  f.sent = sent;
  return f;
}

async function until(what: string, holds: () => boolean): Promise<void> {
  for (let i = 0; i < 6_000 && !holds(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(holds(), what);
}

describe('compare: the run keeps each finished request and Resume sends only what is missing', () => {
  const ctx = useEmulator({ answerDelayMs: 20 });
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-compare-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  const emulatorInfer = (): Infer => {
    const client = clientFor(ctx.emu);
    return (r, signal) => collectInference(client.infer({ ...r, ...KNOBS, stream: false }, { signal }));
  };
  const inferences = () => ctx.emu.received.filter((r) => r.origin === 'api' && r.method === 'POST' && r.path.startsWith('/cr/')).length;

  it('after the process running it was killed mid-run: no finished answer lost, none sent again', async () => {
    const log = ComparisonLog.create(root, spec('killed', 30));
    const file = path.join(log.dir, 'entries.jsonl');
    const lines = () => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    const child = fork(path.join(__dirname, 'compareRunChild.js'), [ctx.emu.url, log.dir], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await until('the child finished some answers', () => lines() >= 8);
    child.kill('SIGKILL');
    await exited;
    // A write cut by the crash: a half line, which reading leaves out (its request is asked again).
    fs.appendFileSync(file, '{"kind":"answer","item":29,"mod');
    const before = log.entries();
    assert.ok(before.size >= 8 && before.size < 60, `killed mid-run: ${before.size} of 60 done`);
    ctx.emu.clearReceived();

    const infer = recording(emulatorInfer());
    const result = await runComparison({ log, infer, concurrency: 4 });

    const finishedBefore = new Set([...before.values()].map((e) => `${e.model}|${log.spec.items[e.item]!.question}`));
    assert.deepEqual(
      infer.sent.filter((s) => finishedBefore.has(s)),
      [],
      'nothing finished before the kill is sent again',
    );
    assert.equal(infer.sent.length, 60 - before.size, 'everything missing is sent, once');
    assert.equal(new Set(infer.sent).size, infer.sent.length);
    assert.equal(inferences(), 60 - before.size, 'the service saw exactly the missing requests');
    assert.deepEqual(result, { sent: 60 - before.size, failed: 0, cancelled: false });
    const entries = ComparisonLog.open(log.dir)!.entries();
    assert.equal(entries.size, 60);
    for (const [key, entry] of before) assert.deepEqual(entries.get(key), entry, `kept as it was: ${key}`);
  });

  it('after a cancel: the answers that ended are kept, and Resume sends the rest', async () => {
    const log = ComparisonLog.create(root, spec('cancelled', 10));
    const stop = new AbortController();
    const first = recording(emulatorInfer());
    let progress = 0;
    const cancelled = await runComparison({
      log,
      infer: first,
      concurrency: 4,
      signal: stop.signal,
      onProgress: (done) => {
        progress = done;
        if (done >= 5) stop.abort();
      },
    });
    assert.equal(cancelled.cancelled, true);
    const kept = log.entries();
    assert.equal(kept.size, progress, 'every answer that ended before the cancel is in the log');
    assert.ok(kept.size >= 5 && kept.size < 20);
    const second = recording(emulatorInfer());
    await runComparison({ log, infer: second, concurrency: 4 });
    assert.equal(second.sent.length, 20 - kept.size);
    assert.equal(log.entries().size, 20);
    const summary = summarize(log.spec, log.entries());
    assert.equal(summary.missing, 0);
    assert.equal(summary.rows.length, 10);
  });
});

describe('compare: the log read back', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-compare-log-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads a log of many chunks line by line: every entry whole, characters split across chunks included', () => {
    const log = ComparisonLog.create(root, spec('long', 60));
    // Answers of ~7,000 characters, three bytes each for the CJK: the log is megabytes, lines and characters cut by
    // every 64 KiB chunk it is read in; the log's last line ends with no line break (cut by a crash: left out).
    const textOf = (item: number, model: string) => `${item} ${model} ` + '简体 é ✅ '.repeat(700) + `end ${item}`;
    for (let item = 0; item < 60; item++) {
      for (const model of MODELS) log.append({ kind: 'answer', item, model, text: textOf(item, model), reasoning: 'why', at: 1 });
    }
    fs.appendFileSync(path.join(log.dir, 'entries.jsonl'), '{"kind":"answer","item":0,"mod');
    assert.ok(fs.statSync(path.join(log.dir, 'entries.jsonl')).size > 10 * 64 * 1024);
    const read = log.entries();
    assert.equal(read.size, 120);
    for (let item = 0; item < 60; item++) {
      for (const model of MODELS) assert.equal(read.get(entryKey({ kind: 'answer', item, model }))?.text, textOf(item, model));
    }
    // Without the texts: what was done and nothing of the answers.
    const bare = log.entries({ texts: false });
    assert.equal(bare.size, 120);
    assert.deepEqual(bare.get(entryKey({ kind: 'answer', item: 7, model: MODELS[1]! })), {
      kind: 'answer',
      item: 7,
      model: MODELS[1],
      at: 1,
    });
  });
});

describe('compare: failures, rate limits and judges (an Infer made for each case)', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-compare-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('keeps a failure with the service’s words and sends it again only when asked', async () => {
    const log = ComparisonLog.create(root, spec('failing', 3));
    let failing = true;
    const infer = recording(async (r) => {
      if (failing && r.prompt === 'Question number 1?' && r.modelName === MODELS[1]) {
        throw new ServerError('Inference: the service said "overloaded" (503)');
      }
      return { answer: r.prompt.replace(/\D/g, ''), reasoning: '' };
    });
    const first = await runComparison({ log, infer });
    assert.equal(first.failed, 1);
    const failed = log.entries().get(entryKey({ kind: 'answer', item: 1, model: MODELS[1]! }));
    assert.equal(failed?.error, 'Inference: the service said "overloaded" (503)');
    assert.equal(summarize(log.spec, log.entries()).failed, 1);

    failing = false;
    const again = await runComparison({ log, infer });
    assert.equal(again.sent, 0, 'a failure is not sent again unasked');
    const retried = await runComparison({ log, infer, retryFailed: true });
    assert.equal(retried.sent, 1);
    const summary = summarize(log.spec, log.entries());
    assert.equal(summary.failed, 0);
    assert.deepEqual(
      summary.accuracies.map((a) => [a.correct, a.scored]),
      [
        [3, 3],
        [3, 3],
      ],
    );
  });

  it('runs a comparison once at a time: a second run while one runs, here or in another window, is refused and sends nothing', async () => {
    const log = ComparisonLog.create(root, spec('once', 2));
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = recording(async (r) => {
      await gate;
      return { answer: r.prompt, reasoning: '' };
    });
    const running = runComparison({ log, infer: first });
    await until('the first run sent', () => first.sent.length > 0);
    const second = recording(async (r) => ({ answer: r.prompt, reasoning: '' }));
    await assert.rejects(
      runComparison({ log: ComparisonLog.open(log.dir)!, infer: second }),
      (e) => e instanceof ComparisonRunningError && e.here,
    );
    assert.equal(await comparisonRunning(log.dir), true);
    open();
    await running;
    assert.equal(second.sent.length, 0, 'the refused run sent nothing');
    assert.equal(await comparisonRunning(log.dir), false, 'released when the run ended');
    assert.equal(log.entries().size, 4);
    // Another window's run holds the lock (a live process of this host).
    fs.writeFileSync(
      path.join(log.dir, 'entries.jsonl.lock'),
      JSON.stringify({ pid: process.ppid, host: os.hostname(), token: 'other', since: new Date().toISOString() }),
    );
    assert.equal(await comparisonRunning(log.dir), true);
    await assert.rejects(runComparison({ log, infer: second, retryFailed: true }), (e) => e instanceof ComparisonRunningError && !e.here);
  });

  it('Clear Stored Records removes every kept comparison but one running now, which it keeps and counts', async () => {
    const done = ComparisonLog.create(root, spec('done', 1));
    const running = ComparisonLog.create(root, spec('running', 1));
    fs.mkdirSync(path.join(root, 'cut-before-its-spec'));
    const hold = await holdComparison(running.dir);
    try {
      assert.deepEqual(await removeComparisons(root), { removed: 2, kept: 1 });
      assert.deepEqual(fs.readdirSync(root), ['running']);
      assert.equal(fs.existsSync(done.dir), false);
    } finally {
      await hold.release();
    }
    assert.deepEqual(await removeComparisons(root), { removed: 1, kept: 0 });
    assert.deepEqual(fs.readdirSync(root), []);
    assert.deepEqual(await removeComparisons(path.join(root, 'none')), { removed: 0, kept: 0 });
  });

  it('pauses every request for the wait a rate limit names, then sends the refused one again', async () => {
    const log = ComparisonLog.create(root, spec('limited', 2));
    let clock = 1_000;
    const slept: number[] = [];
    let refused = false;
    const infer = recording(async (r) => {
      if (!refused) {
        refused = true;
        throw new RateLimitError('Too many requests', { status: 429, retryAfterMs: 7_000 });
      }
      return { answer: r.prompt, reasoning: '' };
    });
    const result = await runComparison({
      log,
      infer,
      concurrency: 1,
      now: () => clock,
      sleep: async (ms) => {
        slept.push(ms);
        clock += ms;
      },
    });
    assert.deepEqual(slept, [7_000]);
    assert.equal(result.failed, 0);
    assert.equal(log.entries().size, 4);
    assert.equal(infer.sent.length, 5, 'the refused request once more');
  });

  it('a judge with expected answers: CORRECT/INCORRECT read from its last verdict word; the buckets and McNemar', async () => {
    // The subject is right on items 0-5, the other on items 4-7, of 10: fixed 4, regressed 2, both right 2, both wrong 2.
    const s = spec('judged', 10, { scoring: 'judge', judgeModel: 'judge-model' });
    assert.deepEqual(requestCounts(s), { answers: 20, judge: 20 });
    const log = ComparisonLog.create(root, s);
    const right = (model: string, item: number) => (model === MODELS[0] ? item <= 5 : item >= 4 && item <= 7);
    const infer = recording(async (r) => {
      if (r.modelName !== 'judge-model') return { answer: `${r.modelName} on ${r.prompt}`, reasoning: 'thinking' };
      const [, model, item] = /Answer: (\S+) on Question number (\d+)\?/.exec(r.prompt)!;
      return { answer: `Looks CORRECT at first. Verdict: ${right(model!, Number(item)) ? 'CORRECT' : 'INCORRECT'}`, reasoning: '' };
    });
    await runComparison({ log, infer });
    assert.equal(infer.sent.length, 40);
    const summary = summarize(log.spec, log.entries());
    assert.deepEqual(summary.pairs[0]!.buckets, { fixed: 4, regressed: 2, bothRight: 2, bothWrong: 2 });
    assert.deepEqual(
      summary.accuracies.map((a) => a.correct),
      [6, 4],
    );
    assert.equal(summary.rows[0]!.bucket, 'fixed');
    assert.equal(summary.rows[6]!.bucket, 'regressed');
    assert.equal(summary.pairs[0]!.p?.toFixed(4), '0.6875'); // 2·P(X ≤ 2 | 6, ½) = 2·22/64
    assert.match(
      summary.pairs[0]!.sentence,
      /^oss-reasoner-70b fixed 4 and regressed 2 of 10 against oss-reasoner-8b; a difference this large by chance: p = 0\.688\./,
    );
    assert.match(summary.pairs[0]!.sentence, /To show a gain of 20\.0% .* about \d+ questions\./);
  });

  it('a pairwise judge, without expected answers: each pair asked in both orders, a split verdict a tie', async () => {
    const items = Array.from({ length: 4 }, (_, i) => ({ question: `Q${i}`, line: i + 1 }));
    const s = spec('pairwise', 0, { scoring: 'pairwise', judgeModel: 'judge-model', items });
    assert.deepEqual(requestCounts(s), { answers: 8, judge: 8 });
    const log = ComparisonLog.create(root, s);
    // Q0: the subject better in both orders (a win); Q1: the other (a loss); Q2: the judge always says A (a split: a
    // tie); Q3: a TIE.
    const infer = recording(async (r) => {
      if (r.modelName !== 'judge-model') return { answer: `${r.modelName}`, reasoning: '' };
      const q = /Question: (Q\d)/.exec(r.prompt)![1];
      const subjectIsA = /Answer A: oss-reasoner-70b/.test(r.prompt);
      const verdict = q === 'Q0' ? (subjectIsA ? 'A' : 'B') : q === 'Q1' ? (subjectIsA ? 'B' : 'A') : q === 'Q2' ? 'A' : 'tie';
      return { answer: `I think a careful reader would pick ${verdict}`, reasoning: '' };
    });
    await runComparison({ log, infer });
    const summary = summarize(log.spec, log.entries());
    assert.deepEqual(
      summary.rows.map((r) => r.bucket),
      ['win', 'loss', 'tie', 'tie'],
    );
    assert.deepEqual(summary.pairs[0]!.buckets, { win: 1, loss: 1, tie: 2 });
    assert.equal(summary.pairs[0]!.p, 1);
    assert.deepEqual(summary.accuracies, []);
  });
});
