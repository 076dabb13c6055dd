// The in-editor suite's shared rig: one service emulator running inside the extension host for the whole run, the
// extension's settings pointed at it, the extension activated, and everything put back afterwards. Each test file
// calls useRig() at its top level; the first call registers the root hooks, every call returns the same handle.
//
// The emulator is test code (out/test/service/emulator.js): the suite may load it, the extension never does.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ExtensionExports } from '../../src/extension';
import type { ExtensionApi } from '../../src/main';
import { startEmulator, type Emulator } from '../service/emulator';
import { answeringInputBoxes } from './helpers';
import { COMMANDS } from '../../src/contributions';

export const EXTENSION_ID = 'hosted-reasoning.hosted-reasoning';
const SECTION = 'hostedReasoning';
/** Settings the rig changes (and any test may change): their global values are restored after the run. */
const TOUCHED_SETTINGS = ['baseUrl', 'pollIntervalSeconds', 'downloadFolder', 'requestTimeoutSeconds'] as const;
/** Environment fallbacks the extension reads: a key or URL from the runner's environment would mask what we test. */
const ENV_FALLBACKS = ['HOSTED_REASONING_API_KEY', 'HOSTED_REASONING_BASE_URL'] as const;

/** Fast emulator settings: jobs finish in about a second, artifacts are small. */
export const EMULATOR_SETTINGS = {
  tokenIntervalMs: 1,
  finetuneDurationMs: 1500,
  evaluationDurationMs: 500,
  artifactBytes: 2 * 1024 * 1024,
} as const;

export interface Rig {
  readonly emu: Emulator;
  readonly extension: vscode.Extension<ExtensionExports>;
  /** The live instance: ext.exports until a test re-activates the extension (see replaceApi). */
  readonly api: ExtensionApi;
  /** For a test that re-runs activate(): later tests then talk to the new instance. */
  replaceApi(api: ExtensionApi): void;
  /** Sets a global setting of this extension and resolves once VS Code has it. */
  setSetting(key: string, value: unknown): Promise<void>;
  /**
   * Stores a key through the command (which checks it against the emulator first), then clears the toast it shows;
   * fails if it was refused.
   */
  useKey(key: string): Promise<void>;
  /** Removes the stored key. */
  clearKey(): Promise<void>;
}

let state: { emu: Emulator; extension: vscode.Extension<ExtensionExports>; api: ExtensionApi } | undefined;
let registered = false;

const rig: Rig = {
  get emu() {
    return started().emu;
  },
  get extension() {
    return started().extension;
  },
  get api() {
    return started().api;
  },
  replaceApi(api) {
    started().api = api;
  },
  async setSetting(key, value) {
    await vscode.workspace.getConfiguration(SECTION).update(key, value, vscode.ConfigurationTarget.Global);
    assert.deepEqual(vscode.workspace.getConfiguration(SECTION).get(key), value, `setting ${SECTION}.${key}`);
  },
  async useKey(key) {
    const stored = await answeringInputBoxes([key], async () => vscode.commands.executeCommand<boolean>(COMMANDS.setApiKey));
    assert.equal(stored, true, `the key ${key} was not accepted`);
    assert.equal((await started().api.services.session.current()).key?.key, key);
    // Its toast ("API key saved. …") lies over the lower right of the window, where a page's buttons are: Playwright's
    // click through the page bridge then waited for the toast to time out (4.5 s a click on VS Code 1.104). No test
    // reads the workbench's toasts (a test of a message stubs it).
    await vscode.commands.executeCommand('notifications.clearAll');
  },
  async clearKey() {
    const { origin } = await started().api.services.session.current();
    if (origin) await started().api.services.session.keys.clear(origin);
  },
};

function started(): NonNullable<typeof state> {
  if (!state) throw new Error('the rig is not started: call useRig() at the top level of the test file');
  return state;
}

/** Registers the suite-level hooks once; returns the shared rig. Call at the top level of a test file. */
export function useRig(): Rig {
  if (registered) return rig;
  registered = true;
  const savedSettings = new Map<string, unknown>();
  const savedEnv = new Map<string, string | undefined>();

  before(async function () {
    this.timeout(30_000);
    for (const name of ENV_FALLBACKS) {
      savedEnv.set(name, process.env[name]);
      delete process.env[name];
    }
    const config = vscode.workspace.getConfiguration(SECTION);
    for (const key of TOUCHED_SETTINGS) savedSettings.set(key, config.inspect(key)?.globalValue);

    const emu = await startEmulator({ ...EMULATOR_SETTINGS });
    const extension = vscode.extensions.getExtension<ExtensionExports>(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is not loaded`);
    const api = await (await extension.activate()).main();
    assert.ok(api?.services && api.models, 'activate() did not return the ExtensionApi');
    state = { emu, extension, api };

    await rig.clearKey();
    await rig.setSetting('baseUrl', emu.url);
    await rig.setSetting('pollIntervalSeconds', 1);
  });

  after(async function () {
    this.timeout(30_000);
    if (!state) return;
    await rig.clearKey().catch(() => undefined);
    const config = vscode.workspace.getConfiguration(SECTION);
    for (const [key, value] of savedSettings) {
      await config.update(key, value, vscode.ConfigurationTarget.Global);
    }
    for (const [name, value] of savedEnv) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await state.emu.close();
    state = undefined;
  });
  return rig;
}
