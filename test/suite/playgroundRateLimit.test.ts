// A rate limit in the real playground page: the service answers a run with 429 and `Retry-After: 60`, and the pane's
// status line says so with the clock time of the retry (not "Thinking…" for a silent minute, the wait only in the
// log); Stop ends the wait at once. Read through the runner's browser (webviewPage.ts), as a person would.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import type { PlaygroundPanel } from '../../src/features/playground/host/playgroundPanel';
import { clockTimesBetween, waitFor, whenPanelReady } from './helpers';
import { useRig } from './rig';
import { webviewPage, type WebviewPage } from './webviewPage';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const MODEL = 'oss-reasoner-8b';
const INFER_PATH = '/cr/provider_predict_platform_base_oss';

async function openPanel(): Promise<PlaygroundPanel> {
  const before = new Set(rig.api.playground.panels);
  await vscode.commands.executeCommand(COMMANDS.openPlayground, { modelName: MODEL });
  const panel = rig.api.playground.panels.find((p) => !before.has(p));
  assert.ok(panel, 'the command opened no panel');
  return whenPanelReady(panel);
}

describe(`playground: a rate limit said in the page ${EVERY_HOST_TAG}`, function () {
  this.timeout(60_000);
  let page: WebviewPage;

  before(function () {
    const found = webviewPage('prompt');
    if (!found) this.skip(); // a runner without its own browser (test:electron): nothing can read the page
    page = found;
  });

  afterEach(async () => {
    rig.emu.faults.clear();
    for (const panel of rig.api.playground.panels) panel.dispose();
    await rig.clearKey();
  });

  it('says the wait the service asked for with the time of the retry, in the status line; Stop ends it at once', async () => {
    await rig.useKey('demo-key');
    await openPanel();
    await waitFor('the model list', async () => ((await page.read())['model-select']?.[0]?.value === MODEL ? true : undefined), {
      timeoutMs: 15_000,
    });
    rig.emu.faults.add({ path: INFER_PATH, kind: 'status', status: 429, retryAfter: '60', times: 1 });
    await page.fill('prompt', 'Are you there?');
    const from = Date.now() + 60_000;
    await page.click('run');
    const status = await waitFor('the wait in the status line', async () => {
      const text = (await page.read()).status?.[0]?.text ?? '';
      return text.startsWith('The service asked') ? text : undefined;
    });
    const to = Date.now() + 60_000;
    const m = /^The service asked to wait 60 s; retrying at (.+)\.$/.exec(status);
    assert.ok(m, status);
    assert.ok(clockTimesBetween(from, to).has(m[1]!), `${m[1]} is not the time 60 s after the refusal`);
    await page.click('stop');
    await waitFor('the run stopped', async () => ((await page.read()).status?.[0]?.text === 'Stopped.' ? true : undefined));
    assert.deepEqual(rig.api.playground.panels[0]?.activeRuns, []);
  });
});
