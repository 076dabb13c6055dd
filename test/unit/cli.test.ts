// The command line end to end: the built bundle (dist/cli.js) in a child process against the emulator, as a pipeline
// runs it. Every command, the exit codes a pipeline branches on (a bad key 3, no service 4, a failed check 1, Ctrl+C
// 130), the --json documents' fields, a cut download resumed by the next run, and Ctrl+C during --wait leaving the job
// running and saying how to follow it. Nothing here waits on a clock: a job is held by the emulator and released, a
// line of stderr is waited for before acting.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LM_TOOLS } from '../../src/contributions';
import { writePdf } from '../service/fixtures';
import { startForwardProxy } from '../service/forwardProxy';
import { clientFor, KEY, until, useEmulator } from './helpers';
import { assertBuilt, CLI, cliEnv, jsonOf, runCliProcess, startCli, type CliResult } from './cliProcess';

const BASE = 'oss-reasoner-8b';

describe('the command line (dist/cli.js) against the emulator', function () {
  // A child process per command on a shared machine: each starts Node and loads the bundle.
  this.timeout(60_000);
  const ctx = useEmulator({
    datasets: {
      'cli-better': { total: 400, scores: { 'cli-docs': 0.9, [BASE]: 0.5 } },
      'cli-same': { total: 400, scores: { 'cli-docs': 0.5, [BASE]: 0.5 } },
    },
  });
  let home: string;
  let work: string;
  const env = (extra: Record<string, string | undefined> = {}) =>
    cliEnv(home, { HOSTED_REASONING_BASE_URL: ctx.emu.url, HOSTED_REASONING_API_KEY: KEY, ...extra });
  const cli = (args: string[], extra: Record<string, string | undefined> = {}, stdin?: string): Promise<CliResult> =>
    runCliProcess(args, { env: env(extra), cwd: work, ...(stdin !== undefined && { stdin }) });

  /** The SDK's own client (no roots, no elicitation) on `hosted-reasoning <args>` over stdio, in the work folder. */
  const mcpClient = async (args: string[]): Promise<Client> => {
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, ...args],
        env: env() as Record<string, string>,
        cwd: work,
        stderr: 'pipe',
      }),
    );
    return client;
  };

  before(async () => {
    assertBuilt();
    home = mkdtempSync(path.join(os.tmpdir(), 'hr-cli-home-'));
    work = mkdtempSync(path.join(os.tmpdir(), 'hr-cli-work-'));
    await writePdf(path.join(work, 'handbook.pdf'), ['The product handbook says how the widget is set up. '.repeat(60)]);
  });
  after(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });
  beforeEach(() => {
    ctx.emu.faults.clear();
    ctx.emu.configure({ holdFinetunes: false, rushFinetunes: false, holdEvaluations: false, renameTunedModels: false, reasoning: 'none' });
  });

  it("is one bundle without vscode and without the extension's webview, worker or local-runtime code", () => {
    const bundle = readFileSync(CLI, 'utf8');
    assert.ok(bundle.startsWith('#!/usr/bin/env node\n'), 'runs by its #! line');
    assert.doesNotMatch(bundle, /require\(["']vscode["']\)/);
    for (const part of [
      'node_modules/mammoth',
      'node_modules/pdfjs-dist',
      'node_modules/node-llama-cpp',
      'src/features/playground',
      'src/features/evaluate/report/page',
      'src/local/',
    ]) {
      assert.ok(!bundle.includes(`// ${part}`), `the bundle holds ${part}`);
    }
    assert.ok(bundle.includes('// src/api/client.ts'), "the check reads the bundle's module markers");
  });

  it('models: the names for people, and --json {models: [{name, kind, baseModel?, createdAt?}]}', async () => {
    const human = await cli(['models']);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(`^${BASE}\\s+base$`, 'm'));
    const json = await cli(['models', '--json']);
    assert.equal(json.code, 0, json.stderr);
    const { models } = jsonOf(json) as { models: Record<string, unknown>[] };
    assert.ok(models.some((m) => m.name === BASE && m.kind === 'base'));
    for (const m of models) {
      assert.deepEqual(
        Object.keys(m).filter((k) => !['name', 'kind', 'baseModel', 'createdAt'].includes(k)),
        [],
      );
    }
  });

  it('exit 3 for a key the service refuses, 4 when nothing answers, 2 for a bad argument (each with --json {error})', async () => {
    const badKey = await cli(['models', '--json'], { HOSTED_REASONING_API_KEY: 'not-a-key' });
    assert.equal(badKey.code, 3, badKey.stderr);
    assert.deepEqual(Object.keys((jsonOf(badKey) as { error: object }).error).sort(), ['exitCode', 'kind', 'message']);
    assert.ok(!badKey.stdout.includes('not-a-key') && !badKey.stderr.includes('not-a-key'), 'the key is never printed');

    const port = await closedPort();
    const down = await cli(['models', '--json'], { HOSTED_REASONING_BASE_URL: `http://127.0.0.1:${port}` });
    assert.equal(down.code, 4, down.stderr);
    assert.equal((jsonOf(down) as { error: { exitCode: number } }).error.exitCode, 4);

    const noKey = await cli(['models'], { HOSTED_REASONING_API_KEY: undefined });
    assert.equal(noKey.code, 3);
    assert.match(noKey.stderr, /HOSTED_REASONING_API_KEY/);

    const plainHttp = await cli(['models'], { HOSTED_REASONING_BASE_URL: 'http://example.com/' });
    assert.equal(plainHttp.code, 2);
    assert.match(plainHttp.stderr, /https/);

    const unknown = await cli(['evaluate', BASE]);
    assert.equal(unknown.code, 2);

    const noFolder = await cli(['download', BASE, '--out', 'no-such-folder']);
    assert.equal(noFolder.code, 2, noFolder.stderr);
    assert.match(noFolder.stderr, /no-such-folder does not exist: create the folder first/);
  });

  it('--key-file: the key read from a file instead of the environment', async () => {
    const keyFile = path.join(home, 'key.txt');
    writeFileSync(keyFile, `${KEY}\n`);
    const result = await cli(['models', '--key-file', keyFile], { HOSTED_REASONING_API_KEY: undefined });
    assert.equal(result.code, 0, result.stderr);
  });

  it('ask: the answer streamed to stdout, the reasoning apart on stderr with --reasoning; the prompt from stdin with -', async () => {
    ctx.emu.configure({ reasoning: 'field', reasoningText: 'REASONING-MARK thinking it over' });
    const shown = await cli(['ask', BASE, 'What is 2+2?', '--reasoning']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Answer from oss-reasoner-8b/);
    assert.ok(!shown.stdout.includes('REASONING-MARK'), 'no reasoning in the answer');
    assert.match(shown.stderr, /REASONING-MARK/);
    const hidden = await cli(['ask', BASE, '-'], {}, 'A prompt from a pipe');
    assert.equal(hidden.code, 0, hidden.stderr);
    assert.match(hidden.stdout, /A prompt from a pipe/);
    assert.ok(!hidden.stderr.includes('REASONING-MARK'), 'reasoning is shown only when asked for');
    const json = jsonOf(await cli(['ask', BASE, 'Hello', '--json']));
    assert.deepEqual(Object.keys(json).sort(), ['answer', 'model', 'reasoning']);
    assert.match(String(json.reasoning), /REASONING-MARK/);
  });

  it('finetune: the pre-flight read and its warnings first; no paid job without --yes when stdin is not a terminal', async () => {
    ctx.emu.clearReceived();
    const refused = await cli(['finetune', 'handbook.pdf', '--base', BASE, '--name', 'cli-refused', '--questions', '500']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /handbook\.pdf: \d+ pages?, [\d,]+ words/);
    assert.match(refused.stderr, /Warning: /);
    assert.match(refused.stderr, /--yes/);
    assert.equal(
      ctx.emu.received.filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/cr/generate_questions').length,
      0,
      'nothing was uploaded',
    );

    const wrong = path.join(work, 'notes.pdf');
    writeFileSync(wrong, 'not a pdf at all');
    const bad = await cli(['finetune', 'notes.pdf', '--base', BASE, '--name', 'cli-bad', '--yes']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /notes\.pdf is not a PDF file/);
    rmSync(wrong);
  });

  let madeModel = '';
  it('finetune --wait --yes --json, evaluate --wait, report with intervals, --require-better as the exit code', async () => {
    const tuned = await cli([
      'finetune',
      'handbook.pdf',
      '--base',
      BASE,
      '--name',
      'cli-docs',
      '--questions',
      '5',
      '--wait',
      '--yes',
      '--interval',
      '0.05',
      '--json',
    ]);
    assert.equal(tuned.code, 0, tuned.stderr);
    const doc = jsonOf(tuned) as { job: Record<string, unknown>; files: Record<string, unknown>[]; warnings: unknown[] };
    assert.deepEqual(Object.keys(doc).sort(), ['files', 'job', 'warnings']);
    assert.equal(doc.job.state, 'completed');
    assert.equal(doc.job.kind, 'finetune');
    assert.equal(doc.job.baseModel, BASE);
    assert.match(String(doc.job.follow), /^hosted-reasoning status \S+ --wait$/);
    assert.deepEqual(Object.keys(doc.files[0]!).sort(), ['label', 'sha256', 'size']);
    madeModel = String(doc.job.model);
    assert.equal(madeModel, 'cli-docs');

    for (const model of [madeModel, BASE]) {
      for (const dataset of ['cli-better', 'cli-same']) {
        const evaluated = await cli(['evaluate', model, dataset, '--wait', '--interval', '0.05', '--json']);
        assert.equal(evaluated.code, 0, evaluated.stderr);
        const job = (jsonOf(evaluated) as { job: { result: Record<string, unknown>; state: string } }).job;
        assert.equal(job.state, 'completed');
        assert.deepEqual(Object.keys(job.result).sort(), ['accuracy', 'correct', 'dataset', 'judgeModel', 'total']);
      }
    }

    const better = await cli(['report', madeModel, '--dataset', 'cli-better', '--require-better', '--json']);
    assert.equal(better.code, 0, better.stderr);
    const report = jsonOf(better) as { baseModel: string; better: boolean; datasets: Record<string, Record<string, unknown>>[] };
    assert.equal(report.baseModel, BASE);
    assert.equal(report.better, true);
    const row = report.datasets[0]!;
    assert.deepEqual(Object.keys(row).sort(), ['base', 'comparison', 'dataset', 'model']);
    assert.equal(row.model!.correct, 360);
    assert.equal(row.base!.correct, 200);
    assert.equal(row.comparison!.verdict, 'better');
    assert.ok((row.comparison!.lower as number) > 0 && (row.comparison!.upper as number) < 1);

    const same = await cli(['report', madeModel, '--dataset', 'cli-same', '--require-better']);
    assert.equal(same.code, 1, same.stderr);
    assert.match(same.stdout, /no clear difference at this sample size/);
    assert.match(same.stdout, /95% CI/);

    const whole = await cli(['report', madeModel]);
    assert.equal(whole.code, 0, whole.stderr);
    assert.match(whole.stdout, /cli-better: .*better/);
  });

  it('status: a job started here, by its id', async () => {
    const started = await cli(['evaluate', BASE, 'cli-better', '--json']);
    assert.equal(started.code, 0, started.stderr);
    const id = String((jsonOf(started) as { job: { id: string } }).job.id);
    const followed = await cli(['status', id, '--wait', '--interval', '0.05', '--json']);
    assert.equal(followed.code, 0, followed.stderr);
    assert.equal((jsonOf(followed) as { job: { state: string; id: string } }).job.state, 'completed');
  });

  it('finetune: a second run starting the same name while the first is being started is refused (exit 2), naming it', async () => {
    ctx.emu.clearReceived();
    const starts = () => ctx.emu.received.filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/cr/generate_questions');
    // The first start's upload is held at the service (no answer) while the second run asks for the same name.
    ctx.emu.faults.add({ origin: 'api', method: 'POST', path: '/cr/generate_questions', kind: 'stall', times: 1 });
    const args = ['finetune', 'handbook.pdf', '--base', BASE, '--name', 'cli-once', '--questions', '5', '--yes'];
    const first = startCli(args, { env: env(), cwd: work });
    await until(async () => (starts().length >= 1 ? true : undefined), 30_000, 20);
    const second = await cli(args);
    first.child.kill('SIGINT');
    const firstDone = await first.done;
    assert.equal(second.code, 2, second.stderr);
    assert.match(second.stderr, /'cli-once' is already being started by another hosted-reasoning command-line run/);
    assert.equal(firstDone.code, 130, firstDone.stderr);
    assert.equal(starts().length, 1, 'the service received one start');
  });

  it('evaluate: refused while the same model and dataset is running (exit 2, naming it); --again starts another', async () => {
    ctx.emu.configure({ holdEvaluations: true });
    ctx.emu.clearReceived();
    const starts = () =>
      ctx.emu.received.filter((r) => r.method === 'POST' && r.path.split('?')[0] === '/cr/finetune_model/evaluate_async');
    const first = await cli(['evaluate', BASE, 'cli-same']);
    assert.equal(first.code, 0, first.stderr);
    const again = await cli(['evaluate', BASE, 'cli-same']);
    assert.equal(again.code, 2, again.stderr);
    assert.match(again.stderr, /An evaluation of oss-reasoner-8b on cli-same is running/);
    assert.match(again.stderr, /--again/);
    assert.equal(starts().length, 1, 'the refused run sent nothing');
    const another = await cli(['evaluate', BASE, 'cli-same', '--again']);
    assert.equal(another.code, 0, another.stderr);
    assert.equal(starts().length, 2);
  });

  it('two runs recording jobs at once keep both in the one state file (a read-modify-write under its lock)', async () => {
    const own = mkdtempSync(path.join(os.tmpdir(), 'hr-cli-home-'));
    try {
      ctx.emu.configure({ holdEvaluations: true });
      const ownEnv = cliEnv(own, { HOSTED_REASONING_BASE_URL: ctx.emu.url, HOSTED_REASONING_API_KEY: KEY });
      const runs = ['cli-better', 'cli-same'].map((dataset) =>
        startCli(['evaluate', BASE, dataset, '--wait', '--interval', '0.05', '--json'], { env: ownEnv, cwd: work }),
      );
      // Both have recorded their job and are following it (a first status answer is in) before either ends.
      await Promise.all(runs.map((r, i) => r.stderrMatches(new RegExp(`Evaluating ${BASE} on ${['cli-better', 'cli-same'][i]}: `))));
      ctx.emu.configure({ holdEvaluations: false });
      const ids: string[] = [];
      for (const r of runs) {
        const done = await r.done;
        assert.equal(done.code, 0, done.stderr);
        ids.push(String((jsonOf(done) as { job: { id: string } }).job.id));
      }
      const file = JSON.parse(readFileSync(path.join(own, 'config', 'hosted-reasoning', 'state.json'), 'utf8')) as Record<string, unknown>;
      const kept = Object.entries(file)
        .filter(([k]) => k.startsWith('hostedReasoning.jobs'))
        .flatMap(([, v]) => (v as { id: string; state: string }[]).map((j) => `${j.id} ${j.state}`));
      assert.deepEqual(kept.sort(), ids.map((id) => `${id} completed`).sort());
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('status --wait: a finetune that completes without naming its model takes the name the model list gives it', async () => {
    ctx.emu.configure({ renameTunedModels: true, rushFinetunes: true });
    const started = await cli(['finetune', 'handbook.pdf', '--base', BASE, '--name', 'cli-unnamed', '--questions', '5', '--yes', '--json']);
    assert.equal(started.code, 0, started.stderr);
    const id = String((jsonOf(started) as { job: { id: string } }).job.id);
    const client = clientFor(ctx.emu);
    await until(async () => ((await client.getFinetuneStatus(id)).state === 'completed' ? true : undefined), 30_000, 20);
    const listed = (await client.listModels()).map((m) => m.name).filter((n) => n.includes('cli-unnamed'));
    assert.equal(listed.length, 1, listed.join(', '));
    assert.notEqual(listed[0], 'cli-unnamed', 'the service named the model itself');
    // Its status says completed and names no model.
    ctx.emu.faults.add({
      origin: 'api',
      method: 'GET',
      path: '/cr/generate_questions_status',
      kind: 'body',
      body: JSON.stringify({ job_id: id, status: 'completed', progress: 100 }),
      contentType: 'application/json',
    });
    const followed = await cli(['status', id, '--wait', '--interval', '0.05', '--json']);
    assert.equal(followed.code, 0, followed.stderr);
    const job = (jsonOf(followed) as { job: { state: string; model: string } }).job;
    assert.equal(job.state, 'completed');
    assert.equal(job.model, listed[0]);
  });

  it('Ctrl+C during --wait leaves the job running and says how to follow it; status --wait then follows it to its end', async () => {
    ctx.emu.configure({ holdFinetunes: true });
    const run = startCli(
      ['finetune', 'handbook.pdf', '--base', BASE, '--name', 'cli-held', '--questions', '5', '--wait', '--yes', '--interval', '0.05'],
      {
        env: env(),
        cwd: work,
      },
    );
    const [, id] = await run.stderrMatches(/Started finetuning job (\S+)\./);
    // Its first status answer is in: the wait is under way.
    await run.stderrMatches(/Finetuning cli-held: /);
    run.child.kill('SIGINT');
    const stopped = await run.done;
    assert.equal(stopped.code, 130, stopped.stderr);
    assert.match(stopped.stderr, /keeps running on the service/);
    assert.ok(stopped.stderr.includes(`hosted-reasoning status ${id!} --wait`), stopped.stderr);
    const status = await clientFor(ctx.emu).getFinetuneStatus(id!);
    assert.ok(status.state === 'queued' || status.state === 'running', `the job still runs (${status.state})`);

    ctx.emu.configure({ holdFinetunes: false, rushFinetunes: true });
    const resumed = await cli(['status', id!, '--wait', '--interval', '0.05']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /completed/);
  });

  it('download: a cut transfer resumed by the run, then stopped by Ctrl+C keeps its part; the next run resumes it and verifies the file', async () => {
    const model = 'cli-artifact';
    const size = 256 * 1024;
    await ctx.emu.addCustomModel(KEY, model, { artifactBytes: size });
    const out = mkdtempSync(path.join(os.tmpdir(), 'hr-cli-out-'));
    try {
      // The first answer is cut after 64 KiB; the run resumes from there, and that answer never comes (a stall).
      ctx.emu.clearReceived();
      ctx.emu.faults.add({ origin: 'storage', path: /\/artifacts\//, kind: 'truncate', afterBytes: 64 * 1024, times: 1 });
      ctx.emu.faults.add({ origin: 'storage', path: /\/artifacts\//, kind: 'stall', times: 1 });
      const run = startCli(['download', model, '--out', out], { env: env(), cwd: work });
      const storageGets = () => ctx.emu.received.filter((r) => r.origin === 'storage' && r.method === 'GET');
      await until(async () => (storageGets().length >= 2 ? true : undefined), 30_000, 20);
      assert.match(String(storageGets()[1]!.headers.range), /^bytes=65536-/, 'the run resumed where the cut left it');
      run.child.kill('SIGINT');
      const cut = await run.done;
      assert.equal(cut.code, 130, cut.stderr);
      assert.match(cut.stderr, /run the same command again to resume/);
      const parts = readdirSync(out).filter((f) => f.endsWith('.part'));
      assert.equal(parts.length, 1, `one part file: ${readdirSync(out).join(', ')}`);
      const kept = statSync(path.join(out, parts[0]!)).size;
      assert.equal(kept, 64 * 1024, 'the part holds what came before the cut');

      ctx.emu.faults.clear();
      const resumed = await cli(['download', model, '--out', out, '--json']);
      assert.equal(resumed.code, 0, resumed.stderr);
      const doc = jsonOf(resumed);
      assert.deepEqual(
        Object.keys(doc).filter((k) => !['path', 'bytes', 'verified', 'sha256', 'resumedFrom', 'resumes', 'renewals'].includes(k)),
        [],
      );
      assert.equal(doc.resumedFrom, kept);
      assert.equal(doc.bytes, size);
      assert.equal(statSync(String(doc.path)).size, size);
      assert.deepEqual(readdirSync(out), [path.basename(String(doc.path))], 'the part file and its record are gone');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('profile: how the answers were read, kept in the config folder once two answers agree; --profile <file> reads by it', async () => {
    const result = await cli(['profile', '--json']);
    assert.equal(result.code, 0, result.stderr);
    const doc = jsonOf(result) as { origin: string; parts: { part: string; by: string; reading: string }[] };
    assert.equal(doc.origin, new URL(ctx.emu.url).origin);
    assert.ok(
      doc.parts.some((p) => p.part === 'modelList' && p.by === 'inferred'),
      JSON.stringify(doc.parts),
    );
    const state = readFileSync(path.join(home, 'config', 'hosted-reasoning', 'state.json'), 'utf8');
    assert.ok(!state.includes(KEY), 'the state file never holds the key');

    const profileFile = path.join(home, 'profile.json');
    writeFileSync(profileFile, JSON.stringify({ modelList: { lists: [{ names: 'models[].model_name' }] } }));
    const given = jsonOf(await cli(['profile', '--profile', profileFile, '--json'])) as typeof doc;
    assert.ok(given.parts.some((p) => p.part === 'modelList' && p.by === 'given'));
    const listed = await cli(['models', '--profile', profileFile]);
    assert.equal(listed.code, 0, listed.stderr);
    writeFileSync(profileFile, '{"modelList": {"nonsense": 1}}');
    const refused = await cli(['models', '--profile', profileFile]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /not a service profile/);
  });

  it('goes through the proxy HTTP_PROXY names (credentials from its URL; a 407 is exit 3), and direct to the hosts NO_PROXY names', async () => {
    const proxy = await startForwardProxy();
    try {
      const through = await cli(['models'], { HTTP_PROXY: proxy.url });
      assert.equal(through.code, 0, through.stderr);
      assert.ok(
        proxy.received.some((r) => r.target.includes('/cr/get_allowed_models')),
        JSON.stringify(proxy.received),
      );
      proxy.clear();
      const direct = await cli(['models'], { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
      assert.equal(direct.code, 0, direct.stderr);
      assert.deepEqual(proxy.received, []);

      proxy.requireAuthorization(`Basic ${Buffer.from('user:secret').toString('base64')}`);
      const refused = await cli(['models'], { HTTP_PROXY: proxy.url });
      assert.equal(refused.code, 3, refused.stderr);
      assert.match(refused.stderr, /proxy/i);
      const withCredentials = await cli(['models'], { HTTP_PROXY: proxy.url.replace('http://', 'http://user:secret@') });
      assert.equal(withCredentials.code, 0, withCredentials.stderr);
    } finally {
      await proxy.close();
    }
  });

  it("mcp: serves the extension's tools over stdio to the SDK's own client, with this command line's key and URL", async () => {
    const client = await mcpClient(['mcp']);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(LM_TOOLS).sort());
      const call = async (name: string, args: Record<string, unknown>) =>
        ((await client.callTool({ name, arguments: args })).content as { text: string }[])[0]!.text;
      // One store of jobs with the command line: what its runs evaluated and started is the server's too.
      const evaluated = await cli(['evaluate', BASE, 'cli-better', '--wait', '--interval', '0.05', '--json']);
      assert.equal(evaluated.code, 0, evaluated.stderr);
      const cliJob = String((jsonOf(evaluated) as { job: { id: string } }).job.id);
      const listed = await call(LM_TOOLS.listModels, {});
      assert.match(listed, new RegExp(`^- ${BASE}: base; last accuracy .* on cli-better`, 'm'));
      assert.match(await call(LM_TOOLS.getJob, { jobId: cliJob }), /\(evaluation\): completed, accuracy/);

      // And a job the server started is known to the command line's status by its record (its kind not asked for).
      ctx.emu.clearReceived();
      const started = await call(LM_TOOLS.startEvaluation, { modelName: BASE, datasetName: 'cli-better', confirm: true });
      const mcpJob = /Started: job (\S+)/.exec(started)?.[1] ?? assert.fail(started);
      const status = await cli(['status', mcpJob, '--wait', '--interval', '0.05', '--json']);
      assert.equal(status.code, 0, status.stderr);
      assert.equal((jsonOf(status) as { job: { dataset?: string } }).job.dataset, 'cli-better');
      assert.equal(
        ctx.emu.received.filter((r) => r.path.startsWith('/cr/generate_questions_status')).length,
        0,
        'status asked the finetune endpoint: it did not know the job',
      );
    } finally {
      await client.close();
    }
  });

  it('mcp --root: the folder a client without roots reads from; a --root that is not a folder is refused at start (exit 2)', async () => {
    const refused = await cli(['mcp', '--root', 'no-such-folder']);
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stderr, /--root .*no-such-folder.* is not a folder/);
    const file = await cli(['mcp', '--root', 'handbook.pdf']);
    assert.equal(file.code, 2, file.stderr);

    // A client without the roots capability (as Copilot CLI 1.0): the finetune reads the file in --root.
    const client = await mcpClient(['mcp', '--root', '.']);
    try {
      ctx.emu.configure({ holdFinetunes: true });
      const result = await client.callTool({
        name: LM_TOOLS.startFinetune,
        arguments: { files: ['handbook.pdf'], baseModel: BASE, modelName: 'cli-rooted', numQs: 5, confirm: true },
      });
      assert.match((result.content as { text: string }[])[0]!.text, /^Started: job /);
    } finally {
      await client.close();
    }
  });

  it('mcp: ends at Ctrl+C (SIGINT), the signal Claude Code stops its servers with before SIGTERM', async () => {
    const run = startCli(['mcp'], { env: env(), cwd: work, openStdin: true });
    // Serving (its Ctrl+C handling in place): it answered the client's first request.
    run.child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-test', version: '1.0.0' } },
      })}\n`,
    );
    await run.stdoutMatches(/"serverInfo"/);
    run.child.kill('SIGINT');
    const ended = await run.done;
    assert.equal(ended.signal, null, 'it ended by itself, not by the signal');
    assert.equal(ended.code, 130, ended.stderr);
    run.child.stdin.destroy();
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
