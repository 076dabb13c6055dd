// The language-model tools through the real API: every tool is in vscode.lm.tools with its tags (the registration
// itself under test), vscode.lm.invokeTool runs each against the emulator, and the test reads the result text a model
// would read and the requests the emulator received. The finetune tool refuses what the wizard refuses and any path
// that leaves the workspace; prepareInvocation's confirmation names each file with its size; a cancelled call closes
// the service's stream. (Restricted Mode: restricted/languageModelTools.test.ts.)
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import { promises as sharedFs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS, LM_TOOLS } from '../../src/contributions';
import { PENDING_DOWNLOADS_KEY } from '../../src/storageKeys';
import { formatBytes } from '../../src/util/byteSize';
import { markdownLiteral } from '../../src/util/untrustedText';
import { writePdf, writeTextlessPdf } from '../service/fixtures';
import { composeAnswer, composeReasoning } from '../service/inference';
import { untrustedMarkdown } from '../../src/util/untrustedMarkdown';
import { recordingMessages, waitFor } from './helpers';
import { EMULATOR_SETTINGS, useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const MODEL = 'oss-reasoner-8b';
const INFER_PATH = '/cr/provider_predict_platform_base_oss';

/** The text parts of a tool's result, joined (parts may arrive as plain objects across the API). */
function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content
    .map((part) => (typeof (part as { value?: unknown }).value === 'string' ? (part as { value: string }).value : ''))
    .join('');
}

/** A prepared message's text. */
function plain(message: string | vscode.MarkdownString | undefined): string {
  return typeof message === 'string' ? message : (message?.value ?? '');
}

async function invoke(name: string, input: object, token?: vscode.CancellationToken): Promise<string> {
  return textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token));
}

function requestsSince(since: number, pathStart: string) {
  return rig.emu.received.filter((r) => r.origin === 'api' && r.path.startsWith(pathStart) && r.time >= since);
}

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'no workspace folder');
  return folder;
}

describe(`language-model tools ${EVERY_HOST_TAG}`, () => {
  afterEach(() => rig.emu.configure({ tokenIntervalMs: EMULATOR_SETTINGS.tokenIntervalMs, reasoning: 'none', thinkMs: 0 }));

  it('are all in vscode.lm.tools with their tags', async () => {
    const ours = await waitFor('our tools in vscode.lm.tools', () => {
      const found = vscode.lm.tools.filter((t) => t.tags.includes('hostedReasoning'));
      return found.length === Object.keys(LM_TOOLS).length ? found : undefined;
    });
    assert.deepEqual(ours.map((t) => t.name).sort(), Object.values(LM_TOOLS).sort());
    const finetune = ours.find((t) => t.name === LM_TOOLS.startFinetune);
    assert.deepEqual(finetune?.tags, ['hostedReasoning', 'finetune', 'workspace']);
    for (const t of ours) assert.ok(t.description.length > 100, `${t.name}: ${t.description}`);
  });

  it('without a key, says what is missing and what to ask the person, with no request sent', async () => {
    await rig.clearKey();
    const since = Date.now();
    const text = await invoke(LM_TOOLS.listModels, {});
    assert.match(text, /No API key is set: ask the person to run "Hosted Reasoning: Set API Key…"/);
    assert.equal(requestsSince(since, '/cr/').length, 0);
  });

  it('hosted_list_models lists base and tuned models with kind, parent and last accuracy', async () => {
    await rig.useKey('demo-key');
    const since = Date.now();
    const text = await invoke(LM_TOOLS.listModels, {});
    assert.ok(requestsSince(since, '/cr/get_allowed_models').length >= 1, 'the list was not asked for');
    assert.match(text, /^\d+ models: \d+ base, \d+ tuned\./);
    assert.match(text, new RegExp(`^- ${MODEL}: base; `, 'm'));
    // The last line says which words are the service's (issue 35).
    assert.match(text, /\nService data: the model, base model and dataset names above are the service's words, [^\n]*$/);
  });

  it('hosted_start_evaluation whose start answer cannot be read says the job may have started and keeps it to be followed', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    await rig.api.services.profiles.forgetAll();
    rig.emu.configure({ answerShapes: { start: 'two-ids' } });
    try {
      const since = Date.now();
      const text = await invoke(LM_TOOLS.startEvaluation, { modelName: MODEL, datasetName: 'demo-qa' });
      assert.match(text, /may have started/, text);
      assert.match(text, /Do not start it again/, text);
      assert.match(text, /Choose How to Read the Started Job/, text);
      assert.equal(requestsSince(since, '/cr/finetune_model/evaluate_async').length, 1, 'started once');
      // What was started is kept for the command (it would otherwise say nothing waits to be read).
      const scope = await rig.api.services.session.scope();
      assert.ok(scope);
      const kept = rig.api.services.starts.latest(scope);
      assert.equal(kept?.job.datasetName, 'demo-qa');
      // Not left for a later test's Choose How to Read the Started Job… to find.
      if (kept) rig.api.services.starts.forget(kept);
    } finally {
      rig.emu.configure({ answerShapes: {} });
      await rig.api.services.profiles.forgetAll();
    }
  });

  it('hosted_start_evaluation starts a job and says how to poll; get_job, list_jobs and the report read it', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    const since = Date.now();
    const started = await invoke(LM_TOOLS.startEvaluation, { modelName: MODEL, datasetName: 'demo-qa' });
    const id = /^Started: job (\S+) evaluates oss-reasoner-8b on demo-qa\.$/m.exec(started)?.[1];
    assert.ok(id, started);
    assert.match(started, /Poll with hosted_get_job/);
    assert.equal(requestsSince(since, '/cr/finetune_model/evaluate_async').length, 1);

    const listed = await invoke(LM_TOOLS.listJobs, {});
    assert.ok(listed.includes(`- evaluation ${id}: `), listed);
    const done = await waitFor(
      'the evaluation to complete, as hosted_get_job says',
      async () => {
        const text = await invoke(LM_TOOLS.getJob, { jobId: id });
        return /: completed, accuracy \d/.test(text) ? text : undefined;
      },
      { timeoutMs: 20_000 },
    );
    assert.match(done, new RegExp(`^Job ${id} \\(evaluation\\): completed, accuracy [\\d.]+% \\(\\d+/\\d+\\)\\.`));
    assert.ok(requestsSince(since, '/cr/finetune_model/evaluate_status').length >= 1);

    const report = await invoke(LM_TOOLS.getEvaluationReport, { modelName: MODEL });
    assert.match(report, /^Evaluation report of oss-reasoner-8b\./);
    assert.match(report, /^Dataset demo-qa:$/m);
    assert.match(report, /^- oss-reasoner-8b \(the model\): accuracy [\d.]+% \(\d+\/\d+\), 95% interval [\d.]+% to [\d.]+%/m);

    const unknown = await invoke(LM_TOOLS.getJob, { jobId: 'no-such-job' });
    assert.match(unknown, /No job no-such-job is known here/);
  });

  it('hosted_start_finetune starts a job from a workspace PDF and returns its id at once', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    const folder = await fsp.mkdtemp(path.join(workspaceFolder(), 'suite-tools-'));
    try {
      await writePdf(path.join(folder, 'handbook.pdf'), ['Refunds are paid within five working days.']);
      const relative = path.relative(workspaceFolder(), path.join(folder, 'handbook.pdf'));
      const name = `suite-tool-${Date.now().toString(36)}`;
      const since = Date.now();
      const text = await invoke(LM_TOOLS.startFinetune, { files: [relative], baseModel: MODEL, modelName: name, numQs: 3 });
      const id = /^Started: job (\S+) creates /m.exec(text)?.[1];
      assert.ok(id, text);
      assert.match(text, new RegExp(`creates ${name} from ${MODEL} with 1 file`));
      assert.match(text, /Poll with hosted_get_job/);
      assert.equal(requestsSince(since, '/cr/generate_questions').filter((r) => r.method === 'POST').length, 1);
      // Returned at once: the job is still running when the answer is in.
      const scope = await rig.api.services.session.scope();
      assert.ok(scope);
      const job = rig.api.services.jobs.list(scope).find((j) => j.id === id);
      assert.equal(job?.kind, 'finetune');
      assert.deepEqual(job?.files, [vscode.workspace.asRelativePath(path.join(folder, 'handbook.pdf'))]);
    } finally {
      await fsp.rm(folder, { recursive: true, force: true });
    }
  });

  it('hosted_start_finetune refuses a renamed text file, a path outside the workspace and a link leaving it; uploads nothing', async function () {
    if (process.platform === 'win32') this.skip(); // links need privileges there
    this.timeout(30_000);
    await rig.useKey('demo-key');
    const workspace = workspaceFolder();
    const folder = await fsp.mkdtemp(path.join(workspace, 'suite-tools-refuse-'));
    const outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'suite-tools-private-'));
    const link = path.join(workspace, `suite-tools-link-${Date.now().toString(36)}`);
    try {
      await fsp.writeFile(path.join(folder, 'notes.pdf'), 'plain text under a PDF name');
      await writePdf(path.join(outside, 'secret.pdf'), ['Private: salaries of 2024.']);
      await fsp.symlink(outside, link);
      const rel = (p: string) => path.relative(workspace, p);
      const cases: [string, string, RegExp][] = [
        ['renamed text file', rel(path.join(folder, 'notes.pdf')), /notes\.pdf is not a PDF file \(it looks like text\)/],
        ['.. out of the workspace', path.join('..', path.basename(outside), 'secret.pdf'), /is outside the workspace folders/],
        ['absolute path outside', path.join(outside, 'secret.pdf'), /is outside the workspace folders/],
        [
          'a linked folder leading out',
          rel(path.join(link, 'secret.pdf')),
          /secret\.pdf is outside the workspace: a symbolic link on its way/,
        ],
      ];
      rig.emu.clearReceived();
      for (const [what, file, why] of cases) {
        const text = await invoke(LM_TOOLS.startFinetune, {
          files: [file],
          baseModel: MODEL,
          modelName: `suite-refused-${Date.now().toString(36)}`,
        });
        assert.match(text, /^Not started: these files cannot be used\./, `${what}: ${text}`);
        assert.match(text, why, `${what}: ${text}`);
      }
      assert.ok(
        !rig.emu.received.some((q) => q.method === 'POST' && q.path.split('?')[0] === '/cr/generate_questions'),
        'a file was uploaded',
      );
    } finally {
      await fsp.rm(link, { force: true });
      await fsp.rm(folder, { recursive: true, force: true });
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });

  it('prepareInvocation confirms the finetune naming each file with its size, the base model and the new name', async () => {
    await rig.useKey('demo-key');
    const folder = await fsp.mkdtemp(path.join(workspaceFolder(), 'suite-tools-prepare-'));
    try {
      const files = ['a-handbook.pdf', 'b-notes.pdf'].map((f) => path.join(folder, f));
      await writePdf(files[0]!, ['One.']);
      await writePdf(files[1]!, ['Two, longer.', 'And a second line.']);
      const sizes = await Promise.all(files.map(async (f) => (await fsp.stat(f)).size));
      const input = { files: files.map((f) => path.relative(workspaceFolder(), f)), baseModel: MODEL, modelName: 'suite-prepared' };
      const cancel = new vscode.CancellationTokenSource();
      const prepared = await rig.api.tools[LM_TOOLS.startFinetune].prepareInvocation?.({ input }, cancel.token);
      cancel.dispose();
      assert.ok(prepared?.confirmationMessages, JSON.stringify(prepared));
      assert.equal(prepared.confirmationMessages.title, `Finetune ${MODEL} into suite-prepared?`);
      const text = plain(prepared.confirmationMessages.message);
      for (const [i, f] of files.entries()) {
        assert.ok(text.includes(`- ${markdownLiteral(vscode.workspace.asRelativePath(f))} (${formatBytes(sizes[i]!)})`), text);
      }
      assert.ok(
        text.includes(`creates the model ${markdownLiteral('suite-prepared')} from the base model ${markdownLiteral(MODEL)}`),
        text,
      );
      assert.match(plain(prepared.invocationMessage), /^Uploading 2 files to create suite-prepared$/);
    } finally {
      await fsp.rm(folder, { recursive: true, force: true });
    }
  });

  it('prepareInvocation of a finetune with a scanned-like PDF names each file’s pages and words and the warnings', async function () {
    this.timeout(60_000);
    await rig.useKey('demo-key');
    const folder = await fsp.mkdtemp(path.join(workspaceFolder(), 'suite-tools-preflight-'));
    try {
      const handbook = path.join(folder, 'handbook.pdf');
      const scan = path.join(folder, 'scan.pdf');
      await writePdf(handbook, ['Receipts are submitted within thirty days of the trip.']);
      await writeTextlessPdf(scan, 2);
      const sizes = await Promise.all([handbook, scan].map(async (f) => (await fsp.stat(f)).size));
      const input = {
        files: [handbook, scan].map((f) => path.relative(workspaceFolder(), f)),
        baseModel: MODEL,
        modelName: 'suite-preflight-tool',
        numQs: 5,
      };
      const since = Date.now();
      const cancel = new vscode.CancellationTokenSource();
      const prepared = await rig.api.tools[LM_TOOLS.startFinetune].prepareInvocation?.({ input }, cancel.token);
      cancel.dispose();
      assert.ok(prepared?.confirmationMessages, JSON.stringify(prepared));
      const text = plain(prepared.confirmationMessages.message);
      const label = (f: string): string => markdownLiteral(vscode.workspace.asRelativePath(f));
      assert.ok(text.includes(`- ${label(handbook)} (${formatBytes(sizes[0]!)}) — 1 page, 9 words`), text);
      assert.ok(text.includes(`- ${label(scan)} (${formatBytes(sizes[1]!)}) — 2 pages, 0 words`), text);
      assert.ok(text.includes(markdownLiteral(`${vscode.workspace.asRelativePath(scan)} looks scanned: 0 words on 2 pages`)), text);
      assert.ok(text.includes(markdownLiteral('5 questions asked of 9 words of text')), text);
      // Nothing was sent: the confirmation only reads.
      // The upload is the POST: an earlier test's job may still be polled at generate_questions_status.
      assert.equal(requestsSince(since, '/cr/generate_questions').filter((r) => r.method === 'POST').length, 0);
    } finally {
      await fsp.rm(folder, { recursive: true, force: true });
    }
  });

  it('prepareInvocation says what each tool is doing; the evaluation asks first, naming the model and the dataset', async () => {
    await rig.useKey('demo-key');
    const cancel = new vscode.CancellationTokenSource();
    const prepare = (name: keyof typeof rig.api.tools, input: object) => rig.api.tools[name].prepareInvocation?.({ input }, cancel.token);
    const quiet: [keyof typeof rig.api.tools, object, string][] = [
      [LM_TOOLS.listModels, {}, 'Listing the hosted models'],
      [LM_TOOLS.listJobs, {}, 'Listing the hosted jobs'],
      [LM_TOOLS.getJob, { jobId: 'j1' }, 'Reading a hosted job’s status'],
      [LM_TOOLS.getEvaluationReport, { modelName: MODEL }, 'Reading an evaluation report'],
      [LM_TOOLS.askModel, { modelName: MODEL, prompt: 'Hi' }, `Asking ${MODEL}`],
    ];
    for (const [name, input, message] of quiet) {
      const prepared = await prepare(name, input);
      assert.equal(plain(prepared?.invocationMessage), message, name);
      assert.equal(prepared?.confirmationMessages, undefined, `${name} asks for a confirmation`);
    }
    const evaluation = await prepare(LM_TOOLS.startEvaluation, { modelName: MODEL, datasetName: 'demo-qa' });
    assert.equal(plain(evaluation?.invocationMessage), `Starting the evaluation of ${MODEL} on demo-qa`);
    assert.equal(evaluation?.confirmationMessages?.title, `Evaluate ${MODEL}?`);
    assert.equal(
      plain(evaluation?.confirmationMessages?.message),
      `Starts an evaluation of the model ${MODEL} on the dataset demo-qa on the service, which spends compute on your account.`,
    );
    cancel.dispose();
  });

  it('hosted_ask_model returns the answer, its reasoning only when asked for', async () => {
    await rig.useKey('demo-key');
    rig.emu.configure({ reasoning: 'field' });
    const prompt = 'What does a cache buy you?';
    const expected = {
      prompt,
      queryOnly: prompt,
      modelName: MODEL,
      stream: true,
      useRag: false,
      sequentialBudget: 8,
      parallelBudget: 1,
      temperature: 0.7,
    };
    const since = Date.now();
    const plain = await invoke(LM_TOOLS.askModel, { modelName: MODEL, prompt });
    assert.equal(requestsSince(since, INFER_PATH).length, 1);
    // The answer as Chat would show it (the markdown neutraliser's), its code as written.
    assert.ok(plain.startsWith(`Answer of ${MODEL}:\n${untrustedMarkdown(composeAnswer(expected).trim())}`), plain);
    assert.ok(composeAnswer(expected).includes('\n  return') && plain.includes('\n  return'), 'code lost its indentation');
    assert.ok(!plain.includes(composeReasoning(expected).trim().slice(0, 40)), 'the reasoning was returned unasked');
    assert.match(plain, /includeReasoning true/);
    const withReasoning = await invoke(LM_TOOLS.askModel, { modelName: MODEL, prompt, includeReasoning: true });
    assert.ok(withReasoning.includes(`Its reasoning:\n${untrustedMarkdown(composeReasoning(expected).trim())}`), withReasoning);
  });

  // Issue 35: the tool has no progress channel, and a wait of up to 60 s was slept without a word to the agent.
  it('hosted_ask_model told by the service to wait 30 s says so at once, without sleeping it or asking again', async function () {
    this.timeout(20_000);
    await rig.useKey('demo-key');
    rig.emu.faults.add({ path: INFER_PATH, kind: 'status', status: 429, retryAfter: '30', times: 1 });
    const since = Date.now();
    try {
      const text = await invoke(LM_TOOLS.askModel, { modelName: MODEL, prompt: 'Are you there?' });
      assert.match(text, /^Asking the model failed: .*too many requests \(429\).*\. Try again in 30 s\./, text);
      assert.match(text, /The service asks to wait: try again later, not at once\./);
      assert.match(text, /\nService data: the words after "failed:" above are the service's words, [^\n]*$/);
      assert.equal(requestsSince(since, INFER_PATH).length, 1, 'asked once');
    } finally {
      rig.emu.faults.clear();
    }
  });

  it('a cancelled hosted_ask_model closes the service’s stream, seen at the emulator', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    rig.emu.configure({ tokenIntervalMs: 100 });
    const since = Date.now();
    const cancel = new vscode.CancellationTokenSource();
    const call = invoke(LM_TOOLS.askModel, { modelName: MODEL, prompt: 'Take your time.' }, cancel.token);
    await waitFor('the inference request at the emulator', () => requestsSince(since, INFER_PATH)[0]);
    cancel.cancel();
    const request = await waitFor('the emulator to see the inference request aborted', () =>
      requestsSince(since, INFER_PATH).find((r) => r.aborted),
    );
    assert.equal(request.aborted, true);
    await call.then(
      (text) => assert.match(text, /Cancelled/),
      (e: unknown) => assert.ok(e instanceof vscode.CancellationError || /cancel/i.test(String(e)), String(e)),
    );
    cancel.dispose();
  });

  it('hosted_download_model refuses without a download folder, and downloads into it once set', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    const tuned = 'suite-tool-tuned';
    if (!rig.emu.artifactPath(tuned, 'demo-key')) await rig.emu.addCustomModel('demo-key', tuned);
    await rig.setSetting('downloadFolder', '');
    const since = Date.now();
    const refused = await invoke(LM_TOOLS.downloadModel, { modelName: tuned });
    assert.match(refused, /^Not downloaded: no download folder is set/);
    assert.match(refused, /hostedReasoning\.downloadFolder/);
    assert.equal(requestsSince(since, '/cr/finetune_model/download').length, 0);
    const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'suite-tools-download-'));
    try {
      await rig.setSetting('downloadFolder', directory);
      const cancel = new vscode.CancellationTokenSource();
      const prepared = await rig.api.tools[LM_TOOLS.downloadModel].prepareInvocation?.({ input: { modelName: tuned } }, cancel.token);
      cancel.dispose();
      assert.match(
        plain(prepared?.confirmationMessages?.message),
        new RegExp(`to ${directory.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} as ${tuned}\\.gguf`),
      );
      const text = await invoke(LM_TOOLS.downloadModel, { modelName: tuned });
      const file = path.join(directory, `${tuned}.gguf`);
      const size = (await fsp.stat(file)).size;
      assert.equal(
        text.split('\n')[0],
        `Downloaded ${tuned}: ${file} (${formatBytes(size)}, checked by ${/checked by (\S+)\)/.exec(text)?.[1]}).`,
      );
      assert.equal(requestsSince(since, '/cr/finetune_model/download').length, 1);
    } finally {
      await rig.setSetting('downloadFolder', '');
      await fsp.rm(directory, { recursive: true, force: true });
    }
  });

  /**
   * Starts the download of `tuned` by `first` (the command or the tool), holds it at its part file's lock (the file
   * system calls the extension shares with this test) until the other has asked for the same download, then lets it
   * go: no timing decides which is running when. The second has joined once the connection its transfer asks for is
   * made (the join is decided at once after it, with no await). The tool asks for one earlier too, in
   * prepareInvocation (to read a part file's size): released on that one, the command's download could end before the
   * tool's invoke came, and the tool would fetch again (seen in a CI run on a fast machine).
   */
  async function downloadTwice(tuned: string, first: 'command' | 'tool') {
    await rig.useKey('demo-key');
    if (!rig.emu.artifactPath(tuned, 'demo-key')) await rig.emu.addCustomModel('demo-key', tuned);
    const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'suite-tools-join-'));
    await rig.setSetting('downloadFolder', directory);
    const open = sharedFs.open;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let lockAsked!: () => void;
    const locking = new Promise<void>((resolve) => (lockAsked = resolve));
    const opened = (file: string, rest: unknown[]) => (open as (...a: unknown[]) => unknown)(file, ...rest);
    sharedFs.open = ((file: string, ...rest: unknown[]) => {
      if (!(String(file).startsWith(directory) && String(file).endsWith('.part.lock'))) return opened(file, rest);
      lockAsked();
      return held.then(() => opened(file, rest));
    }) as typeof sharedFs.open;
    const session = rig.api.services.session as { connect: () => Promise<unknown> };
    const connect = session.connect;
    let connected!: () => void;
    const secondConnected = new Promise<void>((resolve) => (connected = resolve));
    const byCommand = () => vscode.commands.executeCommand<string | undefined>(COMMANDS.download, { modelName: tuned });
    const byTool = () => invoke(LM_TOOLS.downloadModel, { modelName: tuned });
    // The entry module looks the tool up at each call, so this wraps the invoke VS Code calls.
    const tool = rig.api.tools[LM_TOOLS.downloadModel];
    const invokeTool = tool.invoke.bind(tool);
    let toolInvoked = false;
    tool.invoke = (options, token) => {
      toolInvoked = true;
      return invokeTool(options, token);
    };
    try {
      const since = rig.emu.received.length;
      const { file, text, shown } = await recordingMessages(async (shown) => {
        const one = first === 'command' ? byCommand() : byTool();
        await locking;
        session.connect = () =>
          connect.call(session).then((c) => {
            if (first === 'tool' || toolInvoked) setImmediate(connected);
            return c;
          });
        const two = first === 'command' ? byTool() : byCommand();
        await secondConnected;
        session.connect = connect;
        release();
        const [a, b] = await Promise.all([one, two]);
        return first === 'command' ? { file: a, text: b as string, shown } : { file: b, text: a as string, shown };
      });
      assert.ok(file, `the command's download failed: ${JSON.stringify(shown)}`);
      assert.equal(
        text.split('\n')[0],
        `Downloaded ${tuned}: ${file} (${formatBytes((await fsp.stat(file)).size)}, checked by ${/checked by (\S+)\)/.exec(text)?.[1]}).`,
      );
      assert.deepEqual(
        shown.filter((m) => m.severity === 'error'),
        [],
      );
      assert.deepEqual(await fsp.readdir(directory), [`${tuned}.gguf`]);
      const transfers = rig.emu.received.slice(since).filter((r) => r.origin === 'storage' && r.method === 'GET');
      assert.equal(transfers.length, 1, 'the artifact was fetched twice');
      assert.deepEqual(pendingOf(tuned), []);
      return { text, shown };
    } finally {
      session.connect = connect;
      tool.invoke = invokeTool;
      sharedFs.open = open;
      release();
      await rig.setSetting('downloadFolder', '');
      await fsp.rm(directory, { recursive: true, force: true });
    }
  }

  it('hosted_download_model joins the download the command already runs: one GET of the artifact, both end with the same file', async function () {
    this.timeout(30_000);
    const { text, shown } = await downloadTwice('suite-tool-joined', 'command');
    assert.match(text, /already being downloaded in this window/);
    assert.ok(
      shown.some((m) => m.text.startsWith('Downloaded ')),
      JSON.stringify(shown),
    );
  });

  it('the download command joins the download the tool already runs, and says a tool started it (it has no notification)', async function () {
    this.timeout(30_000);
    const { text, shown } = await downloadTwice('suite-tool-first', 'tool');
    assert.doesNotMatch(text, /already being downloaded/);
    assert.deepEqual(
      shown.map((m) => m.text),
      [
        `suite-tool-first is already being downloaded to ${path.dirname(shownPath(text))} for a language-model tool: the file is there when it ends.`,
      ],
    );
  });

  it('hosted_download_model forgets the pending download after a checksum failure, as the command does', async function () {
    this.timeout(30_000);
    await rig.useKey('demo-key');
    const tuned = 'suite-tool-mismatch';
    if (!rig.emu.artifactPath(tuned, 'demo-key')) await rig.emu.addCustomModel('demo-key', tuned);
    const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'suite-tools-mismatch-'));
    await rig.setSetting('downloadFolder', directory);
    // The storage answers the artifact's bytes with a checksum header they do not match.
    rig.emu.faults.add({
      origin: 'storage',
      path: /\/artifacts\//,
      kind: 'body',
      body: await fsp.readFile(rig.emu.artifactPath(tuned, 'demo-key')!),
      contentType: 'application/octet-stream',
      headers: { 'x-checksum-sha256': 'ab'.repeat(32) },
    });
    try {
      const since = rig.emu.received.length;
      const text = await invoke(LM_TOOLS.downloadModel, { modelName: tuned });
      assert.ok(
        rig.emu.received.slice(since).some((r) => r.origin === 'storage' && r.fault === 'body'),
        'the checksum fault was not met',
      );
      assert.doesNotMatch(text, /^Downloaded/);
      assert.match(text, /checksum|SHA-256|sha256/i);
      assert.deepEqual(await fsp.readdir(directory), [], 'a part file or a file was left');
      assert.deepEqual(pendingOf(tuned), [], 'the pending record of a download that cannot be resumed was kept');
    } finally {
      rig.emu.faults.clear();
      await rig.setSetting('downloadFolder', '');
      await fsp.rm(directory, { recursive: true, force: true });
    }
  });
});

/** The file a download tool's result names. */
function shownPath(text: string): string {
  return /^Downloaded [^:]+: (.+) \(/.exec(text)?.[1] ?? '';
}

/** The downloads of `modelName` recorded as not finished. */
function pendingOf(modelName: string): unknown[] {
  const list = rig.api.services.context.globalState.get<{ modelName?: unknown }[]>(PENDING_DOWNLOADS_KEY) ?? [];
  return list.filter((d) => d.modelName === modelName);
}
