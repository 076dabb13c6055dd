// The MCP server (src/mcp) through the MCP SDK's own client, against the emulator: in memory for most tests, and once
// over real stdio in a child process. It lists the extension's tools (names, descriptions, schemas; `confirm` added to
// the paid ones), calls each, refuses a finetune's files outside the client's roots as the extension's tool refuses
// paths outside the workspace, and starts a paid job only once the person confirmed it: by elicitation where the
// client can ask, else by `confirm: true`.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, ListRootsRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { PATHS } from '../../src/api/client';
import { LM_TOOLS } from '../../src/contributions';
import { TOOL_DEFINITIONS } from '../../src/features/tools/toolDefinitions';
import { MCP_DEFAULTS } from '../../src/mcp/mcpDefaults';
import { PAID_TOOLS } from '../../src/mcp/mcpTools';
import { FileState } from '../../src/cli/fileState';
import { JobFile } from '../../src/cli/jobFile';
import { createMcpServer, MCP_WORDS, type McpServerHandle } from '../../src/mcp/server';
import { writeTextPagesPdf } from './builders/sourceDocuments';
import { clientFor, KEY, tempDir, useEmulator } from './helpers';

const ROOT = path.resolve(__dirname, '../../..');

interface Connected {
  client: Client;
  handle: McpServerHandle;
  /** The text of a tool's result, and whether it is an error. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean }>;
  close(): Promise<void>;
}

describe('the MCP server', () => {
  const ctx = useEmulator();
  const tmp = tempDir('hr-mcp-');
  let open: Connected[] = [];

  /** A server on the emulator and an SDK client linked to it in memory, sharing `roots` and answering elicitation if given. */
  async function connect(
    options: {
      roots?: string[];
      elicit?: (message: string) => ElicitResult;
      downloadFolder?: string;
      stateDir?: string;
      /** The server's own folders (`--root`), for clients without roots. */
      serverRoots?: string[];
    } = {},
  ): Promise<Connected> {
    const service = clientFor(ctx.emu);
    const stateDir = options.stateDir ?? path.join(tmp.dir, 'state');
    const handle = await createMcpServer({
      client: service,
      // The command line's store, as `hosted-reasoning mcp` gives it.
      jobs: new JobFile(await FileState.open(path.join(stateDir, 'state.json')), service.baseUrl),
      stateDir,
      downloadFolder: options.downloadFolder,
      ...(options.serverRoots && { roots: options.serverRoots }),
    });
    const client = new Client(
      { name: 'test-client', version: '1.0.0' },
      { capabilities: { ...(options.roots && { roots: {} }), ...(options.elicit && { elicitation: {} }) } },
    );
    if (options.roots) {
      const roots = options.roots.map((r) => ({ uri: pathToFileURL(r).href, name: path.basename(r) }));
      client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
    }
    if (options.elicit) {
      const elicit = options.elicit;
      client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await handle.server.connect(serverSide);
    await client.connect(clientSide);
    const connected: Connected = {
      client,
      handle,
      call: async (name, args = {}) => {
        const result = await client.callTool({ name, arguments: args });
        const content = result.content as { type: string; text: string }[];
        assert.equal(content.length, 1);
        assert.equal(content[0]!.type, 'text');
        return { text: content[0]!.text, isError: result.isError === true };
      },
      close: async () => {
        await client.close();
        handle.dispose();
      },
    };
    open.push(connected);
    return connected;
  }

  afterEach(async () => {
    for (const c of open) await c.close();
    open = [];
  });

  const posts = (p: string) =>
    ctx.emu.received.filter((r) => r.origin === 'api' && r.method === 'POST' && r.path.split('?')[0] === p).length;

  /** A folder shared as a root, with a real PDF in it. */
  async function workspace(): Promise<string> {
    const dir = path.join(tmp.dir, 'docs');
    fs.mkdirSync(dir, { recursive: true });
    await writeTextPagesPdf(path.join(dir, 'handbook.pdf'), 2);
    return dir;
  }

  /** Reads a job with hosted_get_job until it no longer runs (the emulator's jobs take a fraction of a second). */
  async function untilDone(c: Connected, jobId: string): Promise<string> {
    for (;;) {
      const { text } = await c.call(LM_TOOLS.getJob, { jobId });
      if (!/Still running/.test(text)) return text;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const jobIdOf = (text: string) => /Started: job (\S+)/.exec(text)?.[1] ?? assert.fail(`no job id in: ${text}`);

  it("lists the extension's tools: its names, descriptions and schemas in the server's words, `confirm` added to the paid ones", async () => {
    const c = await connect();
    const { tools } = await c.client.listTools();
    // The extension's words, but where they name the editor: each phrase swapped is in the extension's text.
    const editorText = JSON.stringify(TOOL_DEFINITIONS);
    for (const [editor] of MCP_WORDS) assert.ok(editorText.includes(editor), `"${editor}" is no longer in the tools' text`);
    const inMcpWords = (x: unknown): unknown => JSON.parse(MCP_WORDS.reduce((t, [e, m]) => t.split(e).join(m), JSON.stringify(x)));
    for (const t of tools) {
      assert.doesNotMatch(JSON.stringify(t), /this editor|the person's setting|download folder setting/, t.name);
    }
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(LM_TOOLS).sort());
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      contributes: {
        languageModelTools: { name: string; modelDescription: string; inputSchema: { properties: Record<string, unknown> } }[];
      };
    };
    for (const t of tools) {
      const contributed = manifest.contributes.languageModelTools.find((x) => x.name === t.name)!;
      assert.equal(t.description, inMcpWords(contributed.modelDescription), t.name);
      const paid = (PAID_TOOLS as string[]).includes(t.name);
      const { confirm, ...rest } = (t.inputSchema.properties ?? {}) as Record<string, unknown>;
      assert.deepEqual({ ...t.inputSchema, properties: rest }, inMcpWords(contributed.inputSchema), t.name);
      assert.equal(confirm !== undefined, paid, `${t.name}: confirm only on the paid tools`);
    }
    assert.deepEqual([...PAID_TOOLS].sort(), [LM_TOOLS.compareModels, LM_TOOLS.startEvaluation, LM_TOOLS.startFinetune].sort());
  });

  it('reads from its input exactly the fields each schema names (the schemas and the code in step)', () => {
    const code = fs.readFileSync(path.join(ROOT, 'src/mcp/mcpTools.ts'), 'utf8');
    for (const [key, name] of Object.entries(LM_TOOLS)) {
      // From its `const <key>: Tool =` to the next tool's or the table.
      const body = new RegExp(`\\nconst ${key}: Tool = [\\s\\S]*?(?=\\nconst \\w+: Tool = |\\nexport const MCP_TOOLS)`).exec(code)?.[0];
      assert.ok(body, `${name}: its function in mcpTools.ts`);
      const read = new Set([
        ...[...body.matchAll(/(?:required|optional)\w*\((?:f|fields\(input\)), '(\w+)'/g)].map((m) => m[1]!),
        ...[...body.matchAll(/= f\.(\w+)/g)].map((m) => m[1]!),
        ...(body.includes('knobsFor(f,') ? ['useRag', 'sequentialBudget', 'parallelBudget', 'temperature'] : []),
      ]);
      const schema = Object.keys(TOOL_DEFINITIONS[name].inputSchema.properties);
      const expected = (PAID_TOOLS as string[]).includes(name) ? [...schema, 'confirm'] : schema;
      assert.deepEqual([...read].sort(), expected.sort(), name);
    }
  });

  it("uses the settings' own defaults where the extension reads a setting", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      contributes: {
        configuration: { properties: Record<string, { default?: unknown }> }[] | { properties: Record<string, { default?: unknown }> };
      };
    };
    const sections = Array.isArray(manifest.contributes.configuration)
      ? manifest.contributes.configuration
      : [manifest.contributes.configuration];
    const def = (key: string) =>
      sections.find((s) => s.properties[`hostedReasoning.${key}`])?.properties[`hostedReasoning.${key}`]?.default;
    assert.deepEqual(MCP_DEFAULTS, {
      finetune: {
        numQs: def('finetune.numQs'),
        mode: def('finetune.mode'),
        useCase: def('finetune.useCase'),
        maxFileBytes: (def('finetune.maxFileSizeMB') as number) * 1024 * 1024,
        maxFiles: def('finetune.maxFiles'),
      },
      chat: {
        temperature: def('chat.temperature'),
        sequentialBudget: def('chat.sequentialBudget'),
        parallelBudget: def('chat.parallelBudget'),
        useRag: def('chat.useRag'),
      },
      compareConcurrency: def('compare.concurrency'),
    });
  });

  it('calls each tool against the service', async () => {
    const docs = await workspace();
    const downloads = path.join(tmp.dir, 'downloads');
    fs.mkdirSync(downloads);
    fs.writeFileSync(
      path.join(docs, 'questions.jsonl'),
      ['{"question":"What is 2+2?","expected":"4"}', '{"question":"Capital of France?","expected":"Paris"}'].join('\n'),
    );
    const c = await connect({ roots: [docs], downloadFolder: downloads });

    const models = await c.call(LM_TOOLS.listModels);
    assert.match(models.text, /- oss-reasoner-8b: base/);
    assert.match(models.text, /^Service data: /m);

    const answer = await c.call(LM_TOOLS.askModel, { modelName: 'oss-reasoner-8b', prompt: 'Say hello.', temperature: 0 });
    assert.equal(answer.isError, false, answer.text);
    assert.match(answer.text, /^Answer of oss-reasoner-8b:/);

    const finetune = await c.call(LM_TOOLS.startFinetune, {
      files: ['handbook.pdf'],
      baseModel: 'oss-reasoner-8b',
      modelName: 'handbook-mcp',
      numQs: 5,
      confirm: true,
    });
    const finetuneJob = jobIdOf(finetune.text);
    assert.match(await untilDone(c, finetuneJob), /\(finetune\): completed\./);

    const evaluation = await c.call(LM_TOOLS.startEvaluation, { modelName: 'oss-reasoner-8b', datasetName: 'demo-qa', confirm: true });
    const evaluationJob = jobIdOf(evaluation.text);
    assert.match(await untilDone(c, evaluationJob), /\(evaluation\): completed, accuracy/);

    const jobs = await c.call(LM_TOOLS.listJobs);
    assert.match(jobs.text, /^2 jobs, 0 running/);
    assert.ok(jobs.text.includes(finetuneJob) && jobs.text.includes(evaluationJob), jobs.text);

    const report = await c.call(LM_TOOLS.getEvaluationReport, { modelName: 'oss-reasoner-8b' });
    assert.match(report.text, /^Evaluation report of oss-reasoner-8b/);
    assert.match(report.text, /Dataset demo-qa:\n- oss-reasoner-8b \(the model\): accuracy/);

    await ctx.emu.addCustomModel(KEY, 'ft-mcp-download');
    const download = await c.call(LM_TOOLS.downloadModel, { modelName: 'ft-mcp-download' });
    assert.equal(download.isError, false, download.text);
    const file = /^Downloaded ft-mcp-download: (.+) \(/.exec(download.text)?.[1];
    assert.ok(file && path.dirname(file) === downloads && fs.statSync(file).size > 0, download.text);

    const compare = await c.call(LM_TOOLS.compareModels, {
      file: 'questions.jsonl',
      models: ['oss-reasoner-8b', 'oss-reasoner-70b'],
      confirm: true,
    });
    assert.equal(compare.isError, false, compare.text);
    assert.match(compare.text, /^Comparison of oss-reasoner-8b, oss-reasoner-70b on questions\.jsonl \(2 questions, scoring: normalized\)/);
    assert.match(compare.text, /Accuracy of oss-reasoner-70b: \d of 2/);
  });

  it("refuses a finetune's files outside the client's roots, a link out of them and a file that is no document, sending nothing", async () => {
    const docs = await workspace();
    const outside = path.join(tmp.dir, 'outside.pdf');
    await writeTextPagesPdf(outside, 1);
    fs.symlinkSync(outside, path.join(docs, 'link.pdf'));
    fs.writeFileSync(path.join(docs, 'notes.txt'), 'plain text');
    const c = await connect({ roots: [docs] });
    const before = posts(PATHS.finetuneStart);
    const args = { baseModel: 'oss-reasoner-8b', modelName: 'refused-model', confirm: true };

    const out = await c.call(LM_TOOLS.startFinetune, { ...args, files: [outside, '../outside.pdf'] });
    assert.match(out.text, /^Not started: these files cannot be used\./);
    assert.equal(out.text.match(/is outside the workspace folders/g)?.length, 2, out.text);

    const link = await c.call(LM_TOOLS.startFinetune, { ...args, files: ['link.pdf'] });
    assert.match(link.text, /^Not started: these files cannot be used\.\n- .*link\.pdf/);

    const text = await c.call(LM_TOOLS.startFinetune, { ...args, files: ['notes.txt'] });
    assert.match(text.text, /^Not started: these files cannot be used\.\n- .*notes\.txt/);

    // A client that shares no roots: nothing can be read.
    const rootless = await connect();
    const none = await rootless.call(LM_TOOLS.startFinetune, { ...args, files: ['handbook.pdf'] });
    assert.match(none.text, /shares no folders \(roots\) with this server and none was given to it.*--root <folder>/);

    assert.equal(posts(PATHS.finetuneStart), before);
  });

  it("reads a finetune's files in the folders given with --root where the client has no roots (Copilot CLI 1.0), never where it has its own", async () => {
    const docs = await workspace();
    const other = path.join(tmp.dir, 'other');
    fs.mkdirSync(other, { recursive: true });
    await writeTextPagesPdf(path.join(other, 'other.pdf'), 2);
    const args = { baseModel: 'oss-reasoner-8b', confirm: true };
    const before = posts(PATHS.finetuneStart);

    // A client without the roots capability: the server's folders are the workspace, with the same refusals.
    const rootless = await connect({ serverRoots: [docs] });
    const started = await rootless.call(LM_TOOLS.startFinetune, { ...args, modelName: 'root-given', files: ['handbook.pdf'] });
    assert.match(started.text, /^Started: job /);
    const outside = await rootless.call(LM_TOOLS.startFinetune, { ...args, modelName: 'root-outside', files: ['../other/other.pdf'] });
    assert.match(outside.text, /^Not started: these files cannot be used\.\n- .*is outside the workspace folders/);

    // A client with roots of its own: only those, whatever the server was given.
    const rooted = await connect({ roots: [other], serverRoots: [docs] });
    const refused = await rooted.call(LM_TOOLS.startFinetune, {
      ...args,
      modelName: 'root-theirs',
      files: [path.join(docs, 'handbook.pdf')],
    });
    assert.match(refused.text, /is outside the workspace folders/);

    assert.equal(posts(PATHS.finetuneStart), before + 1);
  });

  it('starts a paid job only with confirm: true where the client cannot ask its user, and says what it costs', async () => {
    const c = await connect();
    const before = posts(PATHS.evaluateStart);
    const refused = await c.call(LM_TOOLS.startEvaluation, { modelName: 'oss-reasoner-70b', datasetName: 'arith-small' });
    assert.match(refused.text, /^Not started: An evaluation of the model oss-reasoner-70b on the dataset arith-small .* spends compute/);
    assert.match(refused.text, /call again with the same arguments and confirm: true/);
    assert.equal(posts(PATHS.evaluateStart), before);

    const started = await c.call(LM_TOOLS.startEvaluation, { modelName: 'oss-reasoner-70b', datasetName: 'arith-small', confirm: true });
    assert.match(started.text, /^Started: job /);
    assert.equal(posts(PATHS.evaluateStart), before + 1);
  });

  it("asks the person by elicitation where the client can, whatever the agent's confirm says", async () => {
    const asked: string[] = [];
    let agree = false;
    const c = await connect({
      elicit: (message) => {
        asked.push(message);
        return agree ? { action: 'accept', content: { start: true } } : { action: 'decline' };
      },
    });
    const before = posts(PATHS.evaluateStart);
    const declined = await c.call(LM_TOOLS.startEvaluation, { modelName: 'oss-reasoner-8b', datasetName: 'reasoning-hard', confirm: true });
    assert.match(declined.text, /^Not started: the person did not confirm it/);
    assert.equal(posts(PATHS.evaluateStart), before);
    agree = true;
    const started = await c.call(LM_TOOLS.startEvaluation, { modelName: 'oss-reasoner-8b', datasetName: 'reasoning-hard' });
    assert.match(started.text, /^Started: job /);
    assert.equal(posts(PATHS.evaluateStart), before + 1);
    assert.equal(asked.length, 2);
    assert.match(asked[0]!, /evaluation of the model oss-reasoner-8b on the dataset reasoning-hard .* spends compute/);
  });

  it('starts one evaluation for two calls at once (the start is held from before its checks)', async () => {
    const c = await connect();
    const before = posts(PATHS.evaluateStart);
    const args = { modelName: 'oss-reasoner-70b', datasetName: 'demo-qa', confirm: true };
    const results = await Promise.all([c.call(LM_TOOLS.startEvaluation, args), c.call(LM_TOOLS.startEvaluation, args)]);
    assert.equal(results.filter((r) => r.text.startsWith('Started: job ')).length, 1, results.map((r) => r.text).join('\n---\n'));
    assert.equal(results.filter((r) => r.text.startsWith('Not started: ')).length, 1);
    assert.match(results.find((r) => r.text.startsWith('Not started: '))!.text, /is already being started by this MCP server/);
    assert.equal(posts(PATHS.evaluateStart), before + 1);
  });

  it('serves over stdio in its own process, with the jobs kept in its state folder', async () => {
    const state = path.join(tmp.dir, 'stdio-state');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(__dirname, 'mcpServerChild.js'), ctx.emu.url, state],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), Object.values(LM_TOOLS).sort());
      const started = await client.callTool({
        name: LM_TOOLS.startEvaluation,
        arguments: { modelName: 'oss-reasoner-8b', datasetName: 'arith-small', confirm: true },
      });
      const text = (started.content as { text: string }[])[0]!.text;
      assert.match(text, /^Started: job /);
    } finally {
      await client.close();
    }
    // A second server on the same folder knows the job.
    const c = await connect({ stateDir: state });
    assert.match((await c.call(LM_TOOLS.listJobs)).text, /^1 job, .*\n- evaluation .*evaluating oss-reasoner-8b on arith-small/);
  });
});
