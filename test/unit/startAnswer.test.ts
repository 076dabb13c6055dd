// A start whose answer names the job only in its Location header (a 202 with an empty body): the client hands the
// status and the header to the decoder, for evaluations (JSON POST) and finetunes (multipart upload) alike.
import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { writePdf } from '../service/fixtures';
import { clientFor, tempDir, useEmulator } from './helpers';

describe('client: a job id given only in a Location header', function () {
  this.timeout(20_000);
  const ctx = useEmulator();
  const tmp = tempDir('hr-start-');
  beforeEach(() => ctx.emu.faults.clear());

  it('an evaluation started with 202 and Location: /jobs/<id>', async () => {
    ctx.emu.faults.add({
      path: '/cr/finetune_model/evaluate_async',
      kind: 'body',
      status: 202,
      body: '',
      headers: { Location: '/v2/evaluations/eval-4411' },
    });
    const started = await clientFor(ctx.emu).startEvaluation('oss-reasoner-8b', 'squad');
    assert.equal(started.jobId, 'eval-4411');
  });

  it('a finetune started with 201 and Location: …?job_id=<id>, the answer echoing the model name', async () => {
    const file = path.join(tmp.dir, 'doc.pdf');
    writeFileSync(file, '%PDF-1.4 tiny');
    ctx.emu.faults.add({
      path: '/cr/generate_questions',
      kind: 'body',
      status: 201,
      body: JSON.stringify({ accepted: true, model: 'my-model' }),
      headers: { Location: '/cr/generate_questions_status?job_id=gen-9' },
    });
    const started = await clientFor(ctx.emu).startFinetune({
      files: [file],
      numQs: 5,
      mode: 'pretraining',
      modelName: 'my-model',
      modelType: 'oss-reasoner-8b',
      useCase: 'qa',
    });
    assert.equal(started.jobId, 'gen-9');
  });
});

describe('emulator answer shapes: a whole journey read by structure', function () {
  this.timeout(30_000);
  for (const start of ['nested', 'location'] as const) {
    describe(`job ids ${start}, progress as counts`, () => {
      const ctx = useEmulator({ answerShapes: { start, progress: 'counts' }, finetuneDurationMs: 2_000 });
      const tmp = tempDir('hr-shapes-');

      it("starts a finetune and an evaluation, and reads the finetune's progress from its counts", async () => {
        const client = clientFor(ctx.emu);
        const file = path.join(tmp.dir, 'notes.pdf');
        await writePdf(file, ['Photosynthesis turns light into chemical energy in plants. '.repeat(20)]);
        const job = await client.startFinetune({
          files: [file],
          numQs: 5,
          mode: 'pretraining',
          modelName: 'shaped',
          modelType: 'oss-reasoner-8b',
          useCase: 'qa',
        });
        assert.match(job.jobId, /\S/);
        const progress: number[] = [];
        for (;;) {
          const s = await client.getFinetuneStatus(job.jobId);
          if (s.progress !== undefined) progress.push(s.progress);
          if (s.state === 'completed' || s.state === 'failed') {
            assert.equal(s.state, 'completed', s.error);
            break;
          }
          await new Promise((r) => setTimeout(r, 50));
        }
        assert.ok(
          progress.some((p) => p > 0 && p < 100),
          `progress read from counts: ${progress.join(', ')}`,
        );
        const evaluation = await client.startEvaluation('oss-reasoner-8b', 'squad');
        assert.equal((await client.getEvaluationStatus(evaluation.jobId)).jobId, evaluation.jobId);
      });
    });
  }
});
