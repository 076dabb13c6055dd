// The small commands: copy a model's name, clear the key, set the service URL (loopback http or https only), show
// the log; and the log itself, which never holds the API key whatever the commands and the service do.
import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { answeringInputBoxes, modelNode, modelsView, recordingMessages, waitFor } from './helpers';
import { useRig } from './rig';
import { COMMANDS } from '../../src/contributions';

const rig = useRig();
const KEY = 'demo-key';
const MODEL = 'oss-reasoner-8b';

/** Waits until the Models view lists the model (the key change reloads the view in the background). */
async function listedModel(name: string) {
  return waitFor(`the Models view to list ${name}`, () => modelNode(rig.api, name), {
    describe: async () => (await modelsView(rig.api)).models.map((m) => m.model.name),
  });
}

function baseUrlSetting(): string | undefined {
  return vscode.workspace.getConfiguration('hostedReasoning').get<string>('baseUrl');
}

/** Every file under `dir`, recursively (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

const CHANNEL_METHODS = new Set<PropertyKey>(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace']);

/**
 * Runs `body` while every line the extension hands its log channel is also recorded, at every level (the file only
 * gets what the user's log level lets through). The channel is wrapped, not replaced: lines still reach the file.
 */
async function spyingOnLog<T>(body: (lines: string[]) => Promise<T>): Promise<T> {
  const log = rig.api.services.log as unknown as { channel: vscode.LogOutputChannel };
  const original = log.channel;
  const lines: string[] = [];
  log.channel = new Proxy(original, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      const fn = value as (...args: unknown[]) => unknown;
      if (!CHANNEL_METHODS.has(prop)) return fn.bind(target);
      return (...args: unknown[]) => {
        lines.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack ?? ''}` : String(a))).join(' '));
        return fn.apply(target, args);
      };
    },
  });
  try {
    return await body(lines);
  } finally {
    log.channel = original;
  }
}

describe('small commands', () => {
  afterEach(async () => {
    rig.emu.faults.clear();
    await rig.clearKey();
    if (baseUrlSetting() !== rig.emu.url) await rig.setSetting('baseUrl', rig.emu.url);
  });

  it('copyModelName puts the name of a Models-view row on the clipboard', async () => {
    await rig.useKey(KEY);
    const node = await listedModel(MODEL);
    await vscode.env.clipboard.writeText('not the model name');
    await vscode.commands.executeCommand(COMMANDS.copyModelName, node);
    assert.equal(await vscode.env.clipboard.readText(), MODEL);
  });

  it('clearApiKey removes the stored key and empties the Models view for its welcome content', async () => {
    await rig.useKey(KEY);
    await listedModel(MODEL);
    const shown = await recordingMessages(async (shown) => {
      await vscode.commands.executeCommand(COMMANDS.clearApiKey);
      return shown;
    });
    assert.equal((await rig.api.services.session.current()).key, undefined, 'the key is still stored');
    assert.deepEqual(shown, [{ severity: 'information', text: 'API key cleared.', actions: [], modal: false }]);
    // No rows: VS Code shows the "Set API Key" welcome content instead.
    await waitFor('the Models view to be empty', async () => ((await rig.api.models.getChildren()).length === 0 ? true : undefined), {
      describe: async () => (await rig.api.models.getChildren()).map((n) => n.type),
    });
  });

  /** Runs configureBaseUrl as a user who types `url` into its input box; what the input box's own check says. */
  async function configureBaseUrl(url: string): Promise<{ stored: unknown; inputProblem: string | undefined }> {
    return answeringInputBoxes([url], async (asked) => {
      const stored = await vscode.commands.executeCommand(COMMANDS.configureBaseUrl);
      const options = asked[0];
      const inputProblem = options?.validateInput ? await options.validateInput(url) : undefined;
      return { stored, inputProblem: typeof inputProblem === 'string' ? inputProblem : undefined };
    });
  }

  it('configureBaseUrl stores a loopback URL typed in its input box and refuses plain http elsewhere', async () => {
    const port = new URL(rig.emu.url).port;
    await recordingMessages(async (shown) => {
      assert.deepEqual(await configureBaseUrl(`http://127.0.0.1:${port}/api/`), { stored: true, inputProblem: undefined });
      assert.equal(baseUrlSetting(), `http://127.0.0.1:${port}/api`, 'the URL was not stored (without its trailing slash)');
      assert.deepEqual(shown, []);

      const refused = await configureBaseUrl('http://example.com');
      assert.deepEqual(refused, { stored: false, inputProblem: 'Use https: plain http is accepted only for localhost.' });
      assert.equal(baseUrlSetting(), `http://127.0.0.1:${port}/api`, 'the refused URL changed the setting');

      assert.deepEqual(await configureBaseUrl('https://api.example.com/'), { stored: true, inputProblem: undefined });
      assert.equal(baseUrlSetting(), 'https://api.example.com');
    });
  });

  it('configureBaseUrl and setApiKey take nothing from their arguments (a link can pass any)', async () => {
    const before = baseUrlSetting();
    const { origin } = await rig.api.services.session.current();
    assert.ok(origin);
    await recordingMessages(async () => {
      // A user who presses Escape: the URL and the key given as arguments must not be used instead.
      await answeringInputBoxes([undefined, undefined], async () => {
        assert.equal(await vscode.commands.executeCommand(COMMANDS.configureBaseUrl, 'https://evil.example'), false);
        assert.equal(await vscode.commands.executeCommand(COMMANDS.setApiKey, 'attacker-key'), false);
      });
    });
    assert.equal(baseUrlSetting(), before, 'the URL from the argument was stored');
    assert.equal((await rig.api.services.session.keys.get(origin))?.key === 'attacker-key', false, 'the key from the argument was stored');
  });

  // The service client refuses these (parseBaseUrl in src/api/http.ts): the command must not store what it cannot use.
  for (const [url, why] of [
    ['http://127.0.0.1.example.com:8080', 'a DNS name that only starts like a loopback address'],
    ['https://user:secret@api.example.com', 'a URL with a user name and password'],
  ] as const) {
    it(`configureBaseUrl refuses ${why}, as the service client would`, async () => {
      const before = baseUrlSetting();
      const shown = await recordingMessages(async (shown) => {
        const { stored, inputProblem } = await configureBaseUrl(url);
        assert.equal(stored, false, `${url} was accepted`);
        assert.ok(inputProblem, `the input box let ${url} through`);
        return shown;
      });
      assert.equal(baseUrlSetting(), before, `${url} was stored`);
      assert.deepEqual(
        shown.map((m) => m.severity),
        ['error'],
        `messages: ${JSON.stringify(shown)}`,
      );
    });
  }

  it('showLog runs without an error', async () => {
    await recordingMessages(async (shown) => {
      await vscode.commands.executeCommand(COMMANDS.showLog);
      assert.deepEqual(shown, []);
    });
  });

  it('never writes the API key to the log, even when the service echoes it', async function () {
    this.timeout(20_000);
    const log = rig.api.services.log;
    const marker = `suite log marker ${randomUUID()}`;
    await spyingOnLog(async (lines) => {
      await rig.useKey(KEY);
      await listedModel(MODEL);
      // A service answer the client cannot read is logged as an excerpt; this one carries the key.
      rig.emu.faults.add({
        path: '/cr/get_allowed_models',
        kind: 'body',
        body: JSON.stringify({ unexpected: `models of ${KEY}`, echo: { 'x-api-key': KEY } }),
      });
      await recordingMessages(async () => {
        await vscode.commands.executeCommand(COMMANDS.refreshModels);
        await waitFor(
          'the refresh to log the unreadable answer',
          () => (lines.some((l) => /models/i.test(l) && /fail|unexpected|could not|cannot/i.test(l)) ? true : undefined),
          {
            describe: () => lines.slice(-5),
          },
        );
        await vscode.commands.executeCommand(COMMANDS.refreshModels);
        await listedModel(MODEL);
        await vscode.commands.executeCommand(COMMANDS.copyModelName, await modelNode(rig.api, MODEL));
        await vscode.commands.executeCommand(COMMANDS.refreshJobs);
        await answeringInputBoxes(['wrong-key'], async () => vscode.commands.executeCommand(COMMANDS.setApiKey));
      });
      log.info(marker);

      assert.ok(lines.length > 3, `only ${lines.length} lines were logged: ${JSON.stringify(lines)}`);
      assert.ok(
        lines.some((l) => l.includes('[REDACTED]')),
        `nothing was redacted, so the echo was not logged: ${JSON.stringify(lines)}`,
      );
      const leaks = lines.filter((l) => l.includes(KEY));
      assert.deepEqual(leaks, [], 'the key reached the log channel');
    });

    // The file VS Code writes for the channel: under the extension's log folder, the one with the marker in it.
    const folder = rig.api.services.context.logUri.fsPath;
    const file = await waitFor(
      `the log file under ${folder} with the marker`,
      async () => {
        for (const candidate of await filesUnder(folder)) {
          if ((await fsp.readFile(candidate, 'utf8')).includes(marker)) return candidate;
        }
        return undefined;
      },
      { timeoutMs: 5_000, intervalMs: 100, describe: () => filesUnder(folder) },
    );
    const text = await fsp.readFile(file, 'utf8');
    assert.ok(text.split('\n').length > 3, `the log file has little content: ${text}`);
    assert.ok(!text.includes(KEY), `the log file ${file} holds the key`);
  });
});
