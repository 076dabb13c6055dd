// A finetune from a PDF and a DOCX in the workspace, started programmatically: the job is recorded, the service builds
// the model from both documents, the poller sees the job complete and the new model appears under "Custom models".
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import type { FinetuneAnswers } from '../../src/features/finetune/finetuneCommand';
import type { ReportPanel } from '../../src/features/evaluate/report/host/reportPanel';
import { tooltipFor } from '../../src/features/jobs/jobsTree';
import { writeDocx, writePdf } from '../service/fixtures';
import { modelNode, modelsView, waitFor } from './helpers';
import { useRig } from './rig';

const rig = useRig();

describe('finetune', () => {
  let folder: string | undefined;

  afterEach(async () => {
    if (folder) await fsp.rm(folder, { recursive: true, force: true });
    folder = undefined;
    await rig.clearKey();
  });

  it('creates a model from a PDF and a DOCX and lists it under custom models', async function () {
    this.timeout(40_000);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    folder = await fsp.mkdtemp(path.join(workspace, 'suite-finetune-'));
    const pdf = path.join(folder, 'handbook.pdf');
    const docx = path.join(folder, 'policies.docx');
    await writePdf(pdf, ['The handbook says the office opens at nine.', 'Expenses are filed within thirty days.']);
    await writeDocx(docx, ['Remote work needs a manager’s approval.', 'Laptops are replaced every three years.']);

    await rig.useKey('demo-key');
    const baseModel = rig.emu.options.keys['demo-key']?.models[0];
    assert.ok(baseModel);
    const answers: FinetuneAnswers = {
      baseModel,
      modelName: `suite-ft-${Date.now().toString(36)}`,
      numQs: 5,
      mode: 'pretraining',
      useCase: 'in-editor test',
    };

    const since = rig.emu.received.length;
    const outcome = await rig.api.finetune({ files: [pdf, docx], answers });
    assert.ok(outcome, 'the finetune command returned nothing');
    assert.equal(outcome.status, 'started', `outcome: ${JSON.stringify(outcome)}`);
    assert.ok(outcome.status === 'started');
    assert.equal(outcome.job.modelName, answers.modelName);
    assert.deepEqual([...(outcome.job.files ?? [])].map((f) => path.basename(f)).sort(), ['handbook.pdf', 'policies.docx']);

    // Recorded before the command reported success, so a reload right now could not lose it.
    const stored = rig.api.services.jobs.list(outcome.job.scope).find((j) => j.kind === 'finetune' && j.id === outcome.job.id);
    assert.ok(stored, 'the job is not in the job store');
    const upload = rig.emu.received
      .slice(since)
      .filter((r) => r.origin === 'api' && r.method === 'POST' && r.path.startsWith('/cr/generate_questions'));
    assert.equal(upload.length, 1, 'expected exactly one upload');
    assert.equal(upload[0]?.headers['x-api-key'], 'demo-key');
    assert.match(String(upload[0]?.headers['content-type']), /^multipart\/form-data/);

    // The emulator extracts the text of both documents and creates the model: the upload was complete and usable.
    await waitFor(`the emulator to create ${answers.modelName}`, () => rig.emu.artifactPath(answers.modelName, 'demo-key'), {
      timeoutMs: 15_000,
      intervalMs: 100,
    });

    // The poller follows the job to its end...
    const scope = outcome.job.scope;
    const job = await waitFor(
      `finetune job ${outcome.job.id} to complete in the job store`,
      () => {
        const j = rig.api.services.jobs.list(scope).find((x) => x.id === outcome.job.id && x.kind === 'finetune');
        if (j?.state === 'failed') throw new Error(`the job failed: ${j.error ?? j.message ?? '?'}`);
        return j?.state === 'completed' ? j : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100, describe: () => rig.api.services.jobs.list(scope).find((x) => x.id === outcome.job.id) },
    );
    assert.equal(job.modelName, answers.modelName);

    // ...and the Models view lists the new model under "Custom models" without anyone pressing Refresh.
    let groups: Awaited<ReturnType<typeof modelsView>>['groups'] = [];
    const custom = await waitFor(
      `${answers.modelName} under "Custom models"`,
      async () => {
        ({ groups } = await modelsView(rig.api));
        return groups.find((g) => g.kind === 'custom')?.models.find((m) => m.model.name === answers.modelName);
      },
      { timeoutMs: 10_000, intervalMs: 100, describe: () => groups.map((g) => [g.kind, g.models.map((m) => m.model.name)]) },
    );
    assert.equal(custom.kind, 'custom');
    assert.equal(custom.model.baseModel, baseModel);
    assert.equal(rig.api.models.getTreeItem(custom).contextValue, 'model custom');
  });

  it('records the lineage (base model, each file with its size and SHA-256, the answers) and shows it in the tooltips', async function () {
    this.timeout(40_000);
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    folder = await fsp.mkdtemp(path.join(workspace, 'suite-lineage-'));
    const pdf = path.join(folder, 'manual.pdf');
    const docx = path.join(folder, 'faq.docx');
    await writePdf(pdf, ['The device charges in two hours.']);
    await writeDocx(docx, ['Reset it by holding the button for ten seconds.']);
    const sha = async (f: string) =>
      createHash('sha256')
        .update(await fsp.readFile(f))
        .digest('hex');
    const size = async (f: string) => (await fsp.stat(f)).size;

    await rig.useKey('demo-key');
    const baseModel = rig.emu.options.keys['demo-key']?.models[0];
    assert.ok(baseModel);
    const answers: FinetuneAnswers = {
      baseModel,
      modelName: `suite-lineage-${Date.now().toString(36)}`,
      numQs: 4,
      mode: 'pretraining',
      useCase: 'lineage test',
    };
    const outcome = await rig.api.finetune({ files: [pdf, docx], answers });
    assert.ok(outcome?.status === 'started', `outcome: ${JSON.stringify(outcome)}`);
    const scope = outcome.job.scope;

    // Stored with the job the moment it started, read back through the store's checks.
    const stored = rig.api.services.jobs.list(scope).find((j) => j.kind === 'finetune' && j.id === outcome.job.id);
    const lineage = stored?.lineage;
    assert.ok(lineage, 'no lineage was recorded with the job');
    assert.deepEqual(
      [...lineage.files].sort((a, b) => a.name.localeCompare(b.name)),
      [
        { name: 'faq.docx', size: await size(docx), sha256: await sha(docx) },
        { name: 'manual.pdf', size: await size(pdf), sha256: await sha(pdf) },
      ],
    );
    assert.deepEqual(
      { baseModel: lineage.baseModel, numQs: lineage.numQs, mode: lineage.mode, useCase: lineage.useCase, jobId: lineage.jobId },
      { baseModel, numQs: 4, mode: 'pretraining', useCase: 'lineage test', jobId: outcome.job.id },
    );

    const job = await waitFor(
      `finetune job ${outcome.job.id} to complete`,
      () => {
        const j = rig.api.services.jobs.list(scope).find((x) => x.id === outcome.job.id && x.kind === 'finetune');
        if (j?.state === 'failed') throw new Error(`the job failed: ${j.error ?? j.message ?? '?'}`);
        return j?.state === 'completed' ? j : undefined;
      },
      { timeoutMs: 15_000, intervalMs: 100 },
    );
    assert.ok(job.finishedAt !== undefined);

    // The model's tooltip (built when the row is hovered) names the base model and every file with its hash.
    const node = await waitFor(`${answers.modelName} with its lineage in the Models view`, async () => {
      const n = await modelNode(rig.api, answers.modelName);
      return n?.origin ? n : undefined;
    });
    const tooltip = rig.api.models.resolveTreeItem(rig.api.models.getTreeItem(node), node).tooltip;
    assert.ok(typeof tooltip === 'string', 'the tooltip is plain text');
    for (const part of [`Base model: ${baseModel}`, 'Ended: ', `manual.pdf`, await sha(pdf), 'faq.docx', await sha(docx)]) {
      assert.ok(tooltip.includes(part), `the model tooltip lacks ${part}:\n${tooltip}`);
    }
    const jobTooltip = tooltipFor(job, Date.now());
    for (const part of [await sha(pdf), await sha(docx), 'Questions: 4 · mode pretraining']) {
      assert.ok(jobTooltip.includes(part), `the job tooltip lacks ${part}:\n${jobTooltip}`);
    }

    // The model's evaluation report says where it came from: the same job, files and hashes, and the job's end.
    const panel = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, node);
    assert.ok(panel, 'the report command returned no panel');
    try {
      await panel.ready;
      const shown = panel.view?.lineage;
      assert.ok(shown, `the report has no lineage: ${JSON.stringify(panel.view)}`);
      assert.deepEqual(
        [...shown.files].sort((a, b) => a.name.localeCompare(b.name)),
        [
          { name: 'faq.docx', size: await size(docx), sha256: await sha(docx) },
          { name: 'manual.pdf', size: await size(pdf), sha256: await sha(pdf) },
        ],
      );
      assert.deepEqual(
        { baseModel: shown.baseModel, jobId: shown.jobId, numQs: shown.numQs, startedAt: shown.startedAt, finishedAt: shown.finishedAt },
        { baseModel, jobId: outcome.job.id, numQs: 4, startedAt: lineage.startedAt, finishedAt: job.finishedAt },
      );
    } finally {
      panel.dispose();
    }
  });
});
