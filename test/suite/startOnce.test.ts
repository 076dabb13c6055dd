// A paid job is started once per request (issue 35, findings 2 and 3). Two finetunes of one name started at once
// (two tool calls; the command and the tool; Chat's /finetune and the tool) send one upload: the second is refused
// before it sends anything, with words that name the first. An evaluation of a model on a dataset that is running, or
// being started, is not started again unless asked for (the tool's startAnother, the command's Start Another).
// No timing decides which start comes first: the first is held at the client's start request (the instance the
// session hands every entry point) until the second has been answered or has reached the same request, so before the
// fix both reach the service, and after it the second is refused while the first is in flight.
import * as assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { LM_TOOLS } from '../../src/contributions';
import type { FinetuneAnswers, FinetuneOutcome } from '../../src/features/finetune/finetuneCommand';
import type { ChatResponseMetadata } from '../../src/features/chat/chatParticipant';
import { writePdf } from '../service/fixtures';
import { recordingMessages, type ShownMessage } from './helpers';
import { EMULATOR_SETTINGS, useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const MODEL = 'oss-reasoner-8b';
const FINETUNE_START = '/cr/generate_questions';
const EVALUATION_START = '/cr/finetune_model/evaluate_async';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => ((part as { value?: unknown }).value as string | undefined) ?? '').join('');
}

async function invoke(name: string, input: object): Promise<string> {
  return textOf(await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }));
}

function startsSince(since: number, pathStart: string): number {
  return rig.emu.received.filter((r) => r.origin === 'api' && r.method === 'POST' && r.path.startsWith(pathStart) && r.time >= since)
    .length;
}

type StartMethod = 'startFinetune' | 'startEvaluation';

/**
 * Holds the first call of the client's `method` until release(), or until a second call comes (then both go on, as a
 * service would take both). `entered` resolves once the first call is waiting.
 */
async function holdFirstStart(method: StartMethod) {
  const { client } = await rig.api.services.session.connect();
  const target = client as unknown as Record<StartMethod, (...args: unknown[]) => Promise<unknown>>;
  const original = target[method];
  let calls = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const first = new Promise<void>((resolve) => (entered = resolve));
  target[method] = function (this: unknown, ...args: unknown[]) {
    calls++;
    if (calls === 1) {
      entered();
      return gate.then(() => original.apply(this, args));
    }
    release();
    return original.apply(this, args);
  };
  return {
    entered: first,
    release,
    calls: () => calls,
    restore: () => {
      release();
      target[method] = original;
    },
  };
}

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(folder, 'no workspace folder');
  return folder;
}

/** A chat response stream that keeps the markdown written to it. */
function markdownStream(): { stream: vscode.ChatResponseStream; markdown(): string } {
  const parts: string[] = [];
  const stream = {
    markdown: (v: string | vscode.MarkdownString) => parts.push(typeof v === 'string' ? v : v.value),
    progress: () => undefined,
    button: () => undefined,
    anchor: () => undefined,
    filetree: () => undefined,
    reference: () => undefined,
    push: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  return { stream, markdown: () => parts.join('') };
}

async function chat(prompt: string, command: string, references: vscode.ChatPromptReference[], finetuneAnswers?: FinetuneAnswers) {
  const recorded = markdownStream();
  const cancel = new vscode.CancellationTokenSource();
  const request = {
    prompt,
    command,
    references,
    toolReferences: [],
    toolInvocationToken: undefined,
    model: { vendor: 'someone-else', id: 'their-model' },
  } as unknown as vscode.ChatRequest;
  try {
    const result = await rig.api.chat.participant(request, { history: [] }, recorded.stream, cancel.token, { finetuneAnswers });
    return { markdown: recorded.markdown(), metadata: result.metadata as ChatResponseMetadata | undefined };
  } finally {
    cancel.dispose();
  }
}

describe(`one start per request ${EVERY_HOST_TAG}`, () => {
  let folder: string;
  let pdf: string;

  before(async () => {
    folder = await fsp.mkdtemp(path.join(workspaceFolder(), 'suite-start-once-'));
    pdf = path.join(folder, 'handbook.pdf');
    await writePdf(pdf, ['Refunds are paid within five working days.']);
  });

  after(async () => {
    await fsp.rm(folder, { recursive: true, force: true });
  });

  const toolInput = (name: string) => ({ files: [path.relative(workspaceFolder(), pdf)], baseModel: MODEL, modelName: name, numQs: 3 });
  const answers = (name: string): FinetuneAnswers => ({ baseModel: MODEL, modelName: name, numQs: 3, mode: 'pretraining', useCase: '' });
  const underWay = (name: string) => new RegExp(`'${name}' is already being started in this window \\(since \\d\\d:\\d\\d\\)\\.`);

  /**
   * Starts `first`, holds it at the service's start, runs `second` meanwhile and lets the first go once the second is
   * answered (or has reached the service too, before the fix). Resolves with both results and the starts received.
   */
  async function twoAtOnce<A, B>(method: StartMethod, first: () => Promise<A>, second: () => Promise<B>, pathStart: string) {
    await rig.useKey('demo-key');
    const held = await holdFirstStart(method);
    try {
      const since = Date.now();
      return await recordingMessages(async (shown: ShownMessage[]) => {
        const one = first();
        await held.entered;
        const two = await second();
        held.release();
        const a = await one;
        return { first: a, second: two, shown, starts: startsSince(since, pathStart) };
      });
    } finally {
      held.restore();
    }
  }

  it('two calls of the finetune tool at once start one job; the second is refused naming the first', async function () {
    this.timeout(60_000);
    const name = `suite-once-tools-${Date.now().toString(36)}`;
    const r = await twoAtOnce(
      'startFinetune',
      () => invoke(LM_TOOLS.startFinetune, toolInput(name)),
      () => invoke(LM_TOOLS.startFinetune, toolInput(name)),
      FINETUNE_START,
    );
    assert.equal(r.starts, 1, `two uploads reached the service:\n${r.first}\n${r.second}`);
    assert.match(r.first, /^Started: job \S+ creates /m, r.first);
    assert.match(r.second, /^Not started: /, r.second);
    assert.match(r.second, underWay(name), r.second);
    assert.match(r.second, /Do not start it again/, r.second);
  });

  it('the command and the finetune tool at once start one job; the tool is refused naming the command’s start', async function () {
    this.timeout(60_000);
    const name = `suite-once-cmd-${Date.now().toString(36)}`;
    const r = await twoAtOnce<FinetuneOutcome, string>(
      'startFinetune',
      () => rig.api.finetune({ files: [pdf], answers: answers(name) }),
      () => invoke(LM_TOOLS.startFinetune, toolInput(name)),
      FINETUNE_START,
    );
    assert.equal(r.starts, 1, `two uploads reached the service: ${JSON.stringify(r.first)}\n${r.second}`);
    assert.equal(r.first.status, 'started', JSON.stringify(r.first));
    assert.match(r.second, underWay(name), r.second);
  });

  it('the finetune tool and then the command at once start one job; the command says the first is under way', async function () {
    this.timeout(60_000);
    const name = `suite-once-tool-cmd-${Date.now().toString(36)}`;
    const r = await twoAtOnce<string, FinetuneOutcome>(
      'startFinetune',
      () => invoke(LM_TOOLS.startFinetune, toolInput(name)),
      () => rig.api.finetune({ files: [pdf], answers: answers(name) }),
      FINETUNE_START,
    );
    assert.equal(r.starts, 1, `two uploads reached the service: ${r.first}\n${JSON.stringify(r.second)}`);
    assert.match(r.first, /^Started: job /m, r.first);
    assert.equal(r.second.status, 'failed', JSON.stringify(r.second));
    const said = r.shown.find((m) => m.severity === 'error');
    assert.ok(said, JSON.stringify(r.shown));
    assert.match(said.text, underWay(name));
    // Retry later (the name is then taken by the first job) or choose another name: nothing is lost.
    assert.deepEqual(said.actions, ['Edit Answers…', 'Retry']);
  });

  it('Chat’s /finetune and the finetune tool at once start one job', async function () {
    this.timeout(60_000);
    const name = `suite-once-chat-${Date.now().toString(36)}`;
    const references = [{ id: 'vscode.file', name: 'handbook.pdf', value: vscode.Uri.file(pdf) }];
    const r = await twoAtOnce(
      'startFinetune',
      () => chat('#file', 'finetune', references, answers(name)),
      () => invoke(LM_TOOLS.startFinetune, toolInput(name)),
      FINETUNE_START,
    );
    assert.equal(r.starts, 1, `two uploads reached the service: ${r.first.markdown}\n${r.second}`);
    assert.ok(r.first.metadata?.jobId, r.first.markdown);
    assert.match(r.second, underWay(name), r.second);
  });

  describe('evaluations', () => {
    const started: string[] = [];
    afterEach(async () => {
      rig.emu.configure({ evaluationDurationMs: EMULATOR_SETTINGS.evaluationDurationMs });
      // Left running on the service for ever: forgotten here, so no later test finds them running.
      const scope = await rig.api.services.session.scope();
      const keys = started.splice(0).map((id) => `evaluation:${id}`);
      if (scope) await rig.api.services.jobs.remove(scope, keys);
    });

    const idOf = (text: string) => /^Started: job (\S+) evaluates /m.exec(text)?.[1];

    it('two calls of the evaluation tool at once start one job; the second is refused', async function () {
      this.timeout(60_000);
      rig.emu.configure({ evaluationDurationMs: 3_600_000 });
      const input = { modelName: MODEL, datasetName: 'arith-small' };
      const r = await twoAtOnce(
        'startEvaluation',
        () => invoke(LM_TOOLS.startEvaluation, input),
        () => invoke(LM_TOOLS.startEvaluation, input),
        EVALUATION_START,
      );
      for (const text of [r.first, r.second]) {
        const id = idOf(text);
        if (id) started.push(id);
      }
      assert.equal(r.starts, 1, `two evaluations reached the service:\n${r.first}\n${r.second}`);
      assert.ok(idOf(r.first), r.first);
      assert.match(
        r.second,
        new RegExp(`^Not started: An evaluation of ${MODEL} on arith-small is already being started in this window`),
        r.second,
      );
    });

    it('the evaluation tool called again while one runs refuses with the running job’s id, and starts another only when asked', async function () {
      this.timeout(60_000);
      await rig.useKey('demo-key');
      rig.emu.configure({ evaluationDurationMs: 3_600_000 });
      const input = { modelName: MODEL, datasetName: 'reasoning-hard' };
      const since = Date.now();
      const first = await invoke(LM_TOOLS.startEvaluation, input);
      const id = idOf(first);
      assert.ok(id, first);
      started.push(id);
      const again = await invoke(LM_TOOLS.startEvaluation, input);
      const againId = idOf(again);
      if (againId) started.push(againId);
      assert.equal(startsSince(since, EVALUATION_START), 1, `started again:\n${again}`);
      assert.match(
        again,
        new RegExp(
          `^Not started: an evaluation of ${MODEL} on reasoning-hard is already running here: job ${id}, started \\d\\d:\\d\\d\\.`,
        ),
      );
      assert.match(again, new RegExp(`Follow it with hosted_get_job \\(jobId ${id}\\)`));
      assert.match(again, /startAnother: true/);

      // Asked for by the agent, a second run is confirmed as such, for the person to catch.
      const cancel = new vscode.CancellationTokenSource();
      const prepared = await rig.api.tools[LM_TOOLS.startEvaluation].prepareInvocation?.(
        { input: { ...input, startAnother: true } },
        cancel.token,
      );
      cancel.dispose();
      const confirm = prepared?.confirmationMessages?.message;
      assert.match(
        typeof confirm === 'string' ? confirm : (confirm?.value ?? ''),
        /^Starts another evaluation of the model .* even while one is running/,
      );
      const another = await invoke(LM_TOOLS.startEvaluation, { ...input, startAnother: true });
      const anotherId = idOf(another);
      assert.ok(anotherId, another);
      started.push(anotherId);
      assert.notEqual(anotherId, id);
      assert.equal(startsSince(since, EVALUATION_START), 2);
    });

    it('the command asks while one runs: Follow It starts nothing and shows the running job; Start Another starts one', async function () {
      this.timeout(60_000);
      await rig.useKey('demo-key');
      rig.emu.configure({ evaluationDurationMs: 3_600_000 });
      const since = Date.now();
      const id = await rig.api.evaluate(MODEL, 'demo-qa');
      assert.ok(id);
      started.push(id);
      const followed = await recordingMessages(async (shown) => ({ id: await rig.api.evaluate(MODEL, 'demo-qa'), shown }), {
        answer: (m) => (m.modal ? 'Follow It' : undefined),
      });
      if (followed.id && followed.id !== id) started.push(followed.id);
      assert.equal(startsSince(since, EVALUATION_START), 1, 'started again');
      assert.equal(followed.id, id);
      const asked = followed.shown.find((m) => m.modal);
      assert.ok(asked, JSON.stringify(followed.shown));
      assert.match(asked.text, new RegExp(`^An evaluation of ${MODEL} on demo-qa is running \\(started \\d\\d:\\d\\d\\)\\.$`));
      assert.deepEqual(asked.actions, ['Follow It', 'Start Another']);

      const chatSaid = await recordingMessages(() => chat(`${MODEL} demo-qa`, 'evaluate', []), {
        answer: (m) => (m.modal ? 'Follow It' : undefined),
      });
      assert.equal(startsSince(since, EVALUATION_START), 1, 'Chat started it again');
      assert.equal(chatSaid.metadata?.jobId, id);
      assert.match(chatSaid.markdown, /is already running, so no other was started/);

      const another = await recordingMessages(() => rig.api.evaluate(MODEL, 'demo-qa'), {
        answer: (m) => (m.modal ? 'Start Another' : undefined),
      });
      assert.ok(another && another !== id, String(another));
      started.push(another);
      assert.equal(startsSince(since, EVALUATION_START), 2);
    });
  });
});
