// The four journeys at client level (src/api/client.ts against the emulator) in each whole-service style (option
// `shape`, issue 27): key and models, playground, finetune, evaluate and download. Each case exercises one reader of
// the client; whatever else a case needs is done by hand (plain fetch), so a case fails only for its own reader.
// styleBodies.ts says what each style's bodies mean: what the client should have read.
//
// Cases marked `it.skip` fail against today's readers (the reason is in the comment beside each); they are un-skipped
// once the rewritten readers are merged. No assertion is loosened to make a case pass.
import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { collectInference } from '../../src/api/client';
import { AuthError } from '../../src/api/errors';
import { isTerminal, type FinetuneStatus, type InferenceRequest } from '../../src/api/types';
import { DEFAULT_DATASETS, JUDGE_MODEL } from '../service/emulator';
import { scoreFor } from '../service/evaluation';
import { writePdf } from '../service/fixtures';
import { composeAnswer, composeReasoning } from '../service/inference';
import { clientFor, KEY, tempDir, until, useEmulator } from './helpers';
import { STYLES, type StyledShape } from './styleBodies';

const BASE = 'oss-reasoner-8b';
const DATASET = 'demo-qa';

/** A tuned model of each style, as the style names one (seeded, so the journeys do not wait for a finetune). */
const SEEDED: Record<StyledShape, string> = {
  'openai-like': `ft:${BASE}:seeded:0a1b2c3d`,
  'google-like': 'tunedModels/seeded-0a1b2',
  'nested-phase': 'seeded.v1',
};

/**
 * Cases known to fail on main at the commit below, by style and case name, with the reason: each is registered with
 * it.skip (see the header). Un-skip by deleting its entry.
 */
const FAILS_ON_MAIN = 'd57534b';
const KNOWN_FAILURES: Partial<Record<StyledShape, Record<string, string>>> = {
  'nested-phase': {
    // fails on main: the finished answer {phase:"ready",published_as:"<asked>.v1"} names its model under a key that says
    // neither made nor model, so the status reader leaves the made model unnamed (the extension is to adopt it from the
    // model list: the in-editor journey)
    'polls a job to its end: states forward, progress read, the made model named': FAILS_ON_MAIN,
  },
};

/** How long a journey waits for its job's end before it calls the job hung. */
const HANG_GUARD_MS = 90_000;

function journeys(shape: StyledShape): void {
  const style = STYLES[shape];
  const ctx = useEmulator({ shape, reasoning: 'field', finetuneDurationMs: 600 });
  const tmp = tempDir('hr-styles-');
  const base = style.baseName(BASE);
  const known = KNOWN_FAILURES[shape] ?? {};
  /** it(), or it.skip() for a case known to fail on main (its reason stays in KNOWN_FAILURES). */
  // A journey waits on its job's end, not on a clock: the guards below only catch a hang. A finetune's emulated phases
  // take 600 ms, but reading its PDFs loads pdfjs in the emulator, which took 5-8 s at a load of 16 (a 15 s guard
  // failed there twice).
  const test = (name: string, fn: () => Promise<void>) =>
    known[name]
      ? it.skip(`${name} [fails on main at ${FAILS_ON_MAIN}]`, fn)
      : it(name, async function () {
          this.timeout(HANG_GUARD_MS + 20_000);
          await fn();
        });

  const request = (stream: boolean): InferenceRequest => ({
    prompt: 'What does a cache buy you? Café ☕',
    modelName: base,
    stream,
    useRag: true,
    sequentialBudget: 2,
    parallelBudget: 1,
    temperature: 0.5,
  });
  const expected = (r: InferenceRequest) => ({ reasoning: composeReasoning(r), answer: composeAnswer(r) });

  /** Starts a finetune by hand (plain fetch) from two PDFs: the job id as the style gives it. */
  async function startByHand(modelName: string): Promise<string> {
    const fd = new FormData();
    for (const [name, text] of [
      ['handbook.pdf', 'The warranty lasts two years.'],
      ['returns.pdf', 'Returns are accepted within thirty days.'],
    ] as const) {
      const file = path.join(tmp.dir, name);
      await writePdf(file, [text]);
      fd.append('files', new Blob([await fsp.readFile(file)]), name);
    }
    for (const [k, v] of Object.entries({ numQs: '4', mode: 'pretraining', modelName, modelType: base, use_case: 'journey' })) {
      fd.append(k, v);
    }
    const res = await fetch(`${ctx.emu.url}/cr/generate_questions`, { method: 'POST', headers: { 'X-API-Key': KEY }, body: fd });
    assert.equal(res.status, 200);
    return style.startedId(await res.json());
  }

  describe('key and models', () => {
    test('lists the models with their kinds', async () => {
      if (!ctx.emu.artifactInfo(SEEDED[shape], KEY)) await ctx.emu.addCustomModel(KEY, SEEDED[shape], { baseModel: BASE });
      const models = await clientFor(ctx.emu).listModels();
      assert.deepEqual(
        models.map((m) => [m.name, m.kind]),
        [
          [base, 'base'],
          [style.baseName('oss-reasoner-70b'), 'base'],
          [SEEDED[shape], 'custom'],
        ],
      );
    });

    test('a wrong key is an AuthError carrying the service’s words', async () => {
      await assert.rejects(clientFor(ctx.emu, 'wrong-key').listModels(), (e: unknown) => {
        assert.ok(e instanceof AuthError, `${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
        assert.match(`${e.message} ${e.detail ?? ''}`, /Invalid API key/);
        return true;
      });
    });
  });

  describe('playground', () => {
    test('a non-streamed run: answer and reasoning apart', async () => {
      const r = request(false);
      assert.deepEqual(await collectInference(clientFor(ctx.emu).infer(r)), expected(r));
    });

    for (const { key: framing, wire } of style.framings) {
      test(`a streamed run (${wire}): answer and reasoning apart, a piece per event`, async () => {
        const key = `${shape}-${framing}`;
        ctx.emu.setKey(key, { models: [BASE, 'oss-reasoner-70b'], framing });
        const r = request(true);
        const pieces: { kind: string; text: string }[] = [];
        for await (const p of clientFor(ctx.emu, key).infer(r)) pieces.push(p);
        const join = (kind: string) =>
          pieces
            .filter((p) => p.kind === kind)
            .map((p) => p.text)
            .join('');
        assert.deepEqual({ reasoning: join('reasoning'), answer: join('answer') }, expected(r));
        assert.ok(pieces.length > 20, `${pieces.length} pieces: not one per event`);
      });
    }
  });

  describe('finetune', () => {
    test('starts a finetune from two PDFs and is given the service’s job id', async () => {
      const files: string[] = [];
      for (const name of ['manual.pdf', 'faq.pdf']) {
        files.push(path.join(tmp.dir, name));
        await writePdf(files.at(-1)!, [`${name}: the device charges in two hours.`]);
      }
      const started = await clientFor(ctx.emu).startFinetune({
        files,
        numQs: 4,
        mode: 'pretraining',
        modelName: `client-start-${shape}`,
        modelType: base,
        useCase: 'journey',
      });
      assert.equal(started.jobId, style.startedId(started.raw));
      assert.equal(started.sha256.length, 2);
    });

    test('polls a job to its end: states forward, progress read, the made model named', async () => {
      const jobId = await startByHand(`client-poll-${shape}`);
      const client = clientFor(ctx.emu);
      const seen: FinetuneStatus[] = [];
      const final = await until(async () => {
        const s = await client.getFinetuneStatus(jobId);
        seen.push(s);
        return isTerminal(s.state) ? s : undefined;
      }, HANG_GUARD_MS);
      const states = seen.map((s) => s.state);
      assert.equal(final.state, 'completed', `states: ${states.join()}; last raw: ${JSON.stringify(final.raw)}`);
      // A word the extension has no meaning for (OpenAI's `validating_files`, a phase such as `ingesting`) is kept as
      // the service said it: the state is 'unknown' with that word (shown humanised, the job still followed), never
      // taken for an end. What is asserted is that no answer went unread: each gave a state or the service's word.
      const unread = seen.find(
        (s) => !(s.state === 'queued' || s.state === 'running' || s.state === 'completed' || (s.state === 'unknown' && s.rawState)),
      );
      assert.equal(unread, undefined, `a state unread: ${JSON.stringify(unread?.raw)}`);
      assert.ok(states.includes('running'), `never running: ${states.join()}`);
      // Progress never goes back within a stage; a new stage (another word said of the job: `ingesting`, then
      // `tuning` with its own step counts) may start again from 0, as the service counts it.
      const progress = seen.map((s) => s.progress).filter((p): p is number => p !== undefined);
      const stage = (s: FinetuneStatus) => s.rawState ?? s.state;
      const back = seen.find((s, i) => {
        const before = seen[i - 1];
        return (
          before && stage(before) === stage(s) && s.progress !== undefined && before.progress !== undefined && s.progress < before.progress
        );
      });
      assert.equal(back, undefined, `progress went back within a stage: ${JSON.stringify(seen.map((s) => [stage(s), s.progress]))}`);
      assert.ok(
        progress.every((p) => p >= 0 && p <= 100),
        progress.join(),
      );
      if (style.progress(seen[0]!.raw) !== undefined) {
        // The style says how far the job is: the client reads it as it goes.
        const midway = seen.filter((s) => s.state === 'running' && s.progress !== undefined && s.progress > 0 && s.progress < 100);
        assert.ok(midway.length > 0, `no progress read while running: ${JSON.stringify(seen.map((s) => [s.state, s.progress]))}`);
      }
      assert.equal(final.modelName, ctx.emu.madeModel(jobId), `made model: ${JSON.stringify(final.raw)}`);
    });
  });

  describe('evaluate and download', () => {
    test('evaluates a model: accuracy, correct/total and judge; an unknown dataset fails with the service’s words', async () => {
      const client = clientFor(ctx.emu);
      const job = await client.startEvaluation(base, DATASET);
      const done = await until(async () => {
        const s = await client.getEvaluationStatus(job.jobId);
        return isTerminal(s.state) ? s : undefined;
      }, HANG_GUARD_MS);
      assert.equal(done.state, 'completed', JSON.stringify(done.raw));
      const correct = scoreFor(BASE, false, DATASET, DEFAULT_DATASETS[DATASET]!);
      const total = DEFAULT_DATASETS[DATASET]!.total;
      assert.deepEqual(
        { ...done.result, accuracy: Math.round(done.result!.accuracy * 1e9) / 1e9 },
        {
          datasetName: DATASET,
          modelName: base,
          split: 'test',
          correct,
          total,
          accuracy: Math.round((correct / total) * 1e9) / 1e9,
          judgeModel: JUDGE_MODEL,
        },
      );

      const bad = await client.startEvaluation(base, 'no-such-dataset');
      const failed = await until(async () => {
        const s = await client.getEvaluationStatus(bad.jobId);
        return isTerminal(s.state) ? s : undefined;
      }, HANG_GUARD_MS);
      assert.equal(failed.state, 'failed');
      assert.equal(failed.error, "Dataset 'no-such-dataset' not found", JSON.stringify(failed.raw));
    });

    test('downloads a tuned model’s artifact and verifies it', async () => {
      const model = SEEDED[shape];
      if (!ctx.emu.artifactInfo(model, KEY)) await ctx.emu.addCustomModel(KEY, model, { baseModel: BASE });
      const out = await clientFor(ctx.emu).download(model, { directory: tmp.dir });
      const want = await fsp.readFile(ctx.emu.artifactPath(model, KEY)!);
      assert.ok((await fsp.readFile(out.path)).equals(want), 'the bytes differ from the emulator’s artifact');
      // Checked against the strongest checksum the style's answer announces.
      assert.equal(out.verified, { 'openai-like': 'length', 'google-like': 'md5', 'nested-phase': 'sha256' }[shape]);
    });
  });
}

describe('the four journeys through the client, in each whole-service style', function () {
  this.timeout(30_000);
  for (const shape of Object.keys(STYLES) as StyledShape[]) {
    describe(shape, () => journeys(shape));
  }
});
