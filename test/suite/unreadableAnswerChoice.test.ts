// Choose How to Read… for an inference answer and a download answer (issue 27, item 2), in a real VS Code against the
// emulator answering what no reader can decide (a body-replacing fault): the playground's run ends in an error
// offering the choice, the page's fix runs the command, the pick keeps the field, and the next run shows the answer;
// a download's error notification offers the choice, the pick keeps the URL, and the download starts again, completes
// and verifies. The choices are kept for the emulator's origin, which other tests share: they go with each test.
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import { capturingQuickPicks, recordingMessages, waitFor } from './helpers';
import { openPlaygroundOn, record, runSettings, send, textOf, waitForEnd } from './playgroundMessages';
import { useRig } from './rig';
import { webviewPage } from './webviewPage';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();
const MODEL = 'oss-reasoner-8b';
const INFER_PATH = '/cr/provider_predict_platform_base_oss';
const DOWNLOADED = 'suite-choice-model';

/** Accepts the first item of the next quick pick shown (with `want` among its labels, in that order). */
async function acceptFirst(picks: vscode.QuickPick<vscode.QuickPickItem>[], index: number, want: string[]): Promise<void> {
  const pick = await waitFor(`quick pick ${index + 1}`, () => (picks[index]?.items.length ? picks[index] : undefined));
  assert.deepEqual(
    pick.items.map((i) => i.label),
    want,
  );
  pick.activeItems = [pick.items[0]!];
  await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
}

describe(`Choose How to Read… an inference answer and a download answer ${EVERY_HOST_TAG}`, function () {
  this.timeout(60_000);

  afterEach(async () => {
    rig.emu.faults.clear();
    for (const panel of rig.api.playground.panels) panel.dispose();
    await rig.api.services.profiles.forgetAll();
    await rig.setSetting('downloadFolder', '');
    await rig.clearKey();
  });

  it('the playground: an unreadable stream ends in an error offering Choose How to Read…; the field picked, Run again shows the answer', async () => {
    // Two texts in each event and nothing to tell which is the answer: no reader guesses.
    const events = Array.from({ length: 6 }, (_, i) => ({ said: `Part ${i} of the answer. `, aside: `Aside ${i} nobody asked for. ` }));
    const sse = `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
    rig.emu.faults.add({ path: INFER_PATH, kind: 'body', status: 200, body: sse, contentType: 'text/event-stream', times: 100 });
    await rig.useKey('demo-key');
    const panel = await openPlaygroundOn(rig.api, MODEL);
    const log = record(panel);
    try {
      const settings = runSettings(MODEL, { prompt: 'What does a cache buy you?' });
      send(panel, { type: 'run', runId: 'unreadable', settings });
      const end = await waitForEnd(log.posted, 'unreadable');
      assert.equal(end.type, 'error', JSON.stringify(end));
      if (end.type !== 'error') return;
      assert.equal(end.error.kind, 'contract');
      assert.equal(end.error.fix, 'chooseAnswerReading', JSON.stringify(end.error));

      // The page's button posts the fix; the host runs the command, which takes nothing from the page.
      await capturingQuickPicks(async (picks) => {
        send(panel, { type: 'fix', fix: 'chooseAnswerReading' });
        await acceptFirst(picks, 0, ['said', 'aside']);
        await acceptFirst(picks, 1, ['No reasoning in this answer', 'aside']);
        await waitFor('the choice kept', () => rig.api.services.profiles.profile(new URL(rig.emu.url).origin, 'stream'));
      });
      const kept = rig.api.services.profiles.profile(new URL(rig.emu.url).origin, 'stream');
      assert.deepEqual(kept, { answer: ['said'], reasoning: [], by: 'chosen' });
      const shown = await vscode.commands.executeCommand<string>(COMMANDS.showServiceProfile);
      assert.match(shown, /Streamed answers: text at said\n {2}\(as you chose it\)/);

      send(panel, { type: 'run', runId: 'again', settings });
      const again = await waitForEnd(log.posted, 'again');
      assert.equal(again.type, 'done', JSON.stringify(again));
      assert.equal(textOf(log.posted, 'again'), events.map((e) => e.said).join(''));
    } finally {
      log.dispose();
    }
  });

  it('the page: its error shows a Choose How to Read… button; clicked, the pick keeps the field, and Run shows the answer', async function () {
    const page = webviewPage('prompt');
    if (!page) this.skip(); // a runner without its own browser (test:electron): nothing can read the page
    await vscode.commands.executeCommand('notifications.clearAll');
    const events = [{ said: 'The page shows this. ', aside: 'Not this aside at all. ' }];
    const sse = `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')}data: [DONE]\n\n`;
    rig.emu.faults.add({ path: INFER_PATH, kind: 'body', status: 200, body: sse, contentType: 'text/event-stream', times: 100 });
    await rig.useKey('demo-key');
    await openPlaygroundOn(rig.api, MODEL);
    await waitFor('the model list', async () => ((await page.read())['model-select']?.[0]?.value === MODEL ? true : undefined));
    await page.fill('prompt', 'What does a cache buy you?');
    await page.click('run');
    const failed = await waitFor('the error with its button', async () => {
      const v = await page.read();
      return v['error-fix']?.[0]?.visible ? v : undefined;
    });
    assert.match(failed.error?.[0]?.text ?? '', /cannot read/);
    assert.equal(failed['error-fix']?.[0]?.text, 'Choose How to Read…');
    await capturingQuickPicks(async (picks) => {
      await page.click('error-fix');
      await acceptFirst(picks, 0, ['said', 'aside']);
      await acceptFirst(picks, 1, ['No reasoning in this answer', 'aside']);
      await waitFor('the choice kept', () => rig.api.services.profiles.profile(new URL(rig.emu.url).origin, 'stream'));
    });
    await page.click('run');
    const done = await waitFor('the answer', async () => {
      const v = await page.read();
      return v.status?.[0]?.text === 'Done.' && v.output?.[0]?.text.includes('The page shows this.') ? v : undefined;
    });
    assert.ok(!done.output?.[0]?.text.includes('aside'), done.output?.[0]?.text);

    // Beside the answer shown, Choose How to Read… opens that answer: what is read now, and where.
    assert.equal(done['choose-reading']?.[0]?.visible, true, 'no Choose How to Read… beside the answer');
    await capturingQuickPicks(async (picks) => {
      await page.click('choose-reading');
      const roles = await waitFor('the quick pick of what is read', () => picks.find((p) => p.items.length > 0));
      assert.deepEqual(
        roles.items.map((i) => [i.label, i.description]),
        [
          ['The answer’s text', 'read at said'],
          ['The reasoning', 'not read'],
        ],
      );
      roles.hide();
    });
  });

  it('a download: the error offers Choose How to Read…; the URL picked, the download starts again, completes and verifies', async () => {
    await rig.useKey('demo-key');
    if (!rig.emu.artifactPath(DOWNLOADED, 'demo-key')) await rig.emu.addCustomModel('demo-key', DOWNLOADED);
    const source = rig.emu.artifactPath(DOWNLOADED, 'demo-key');
    assert.ok(source);
    const meta = (await (
      await fetch(`${rig.emu.url}/cr/finetune_model/download?model_name=${DOWNLOADED}&redirect=false`, {
        headers: { 'x-api-key': 'demo-key' },
      })
    ).json()) as { url: string; sha256: string; size: number };
    // Two URLs alike: the extension does not guess which is the artifact's.
    const body = { links: { primary: meta.url, mirror: 'https://mirror.example/artifact.gguf' }, checksum: meta.sha256, size: meta.size };
    rig.emu.faults.add({ path: '/cr/finetune_model/download', kind: 'body', status: 200, body: JSON.stringify(body), times: 100 });
    const directory = await fsp.mkdtemp(path.join(os.tmpdir(), 'hr-suite-choice-'));
    try {
      await rig.setSetting('downloadFolder', directory);
      await capturingQuickPicks(async (picks) => {
        await recordingMessages(
          async (shown) => {
            // The error's Choose How to Read… is answered at once; the download started again ends in the folder.
            assert.equal(await vscode.commands.executeCommand(COMMANDS.download, { modelName: DOWNLOADED }), undefined);
            await acceptFirst(picks, 0, ['links.primary', 'links.mirror']);
            await waitFor('the download started again to end', () => shown.find((m) => m.text.startsWith('Downloaded ')), {
              timeoutMs: 30_000,
              describe: () => shown,
            });
            const error = shown.find((m) => m.severity === 'error');
            assert.ok(error, JSON.stringify(shown));
            assert.match(error.text, new RegExp(`^Could not download ${DOWNLOADED}: `));
            assert.deepEqual(error.actions, ['Choose How to Read…']);
          },
          { answer: (m) => (m.actions.includes('Choose How to Read…') ? 'Choose How to Read…' : undefined) },
        );
      });
      const files = await fsp.readdir(directory);
      assert.equal(files.length, 1, files.join(', '));
      const [got, want] = await Promise.all([fsp.readFile(path.join(directory, files[0]!)), fsp.readFile(source)]);
      assert.ok(got.equals(want), 'the bytes differ from the emulator’s artifact');
      const kept = rig.api.services.profiles.profile(new URL(rig.emu.url).origin, 'download');
      assert.deepEqual(kept, { url: 'links.primary', size: 'size', sha256: 'checksum', by: 'chosen' });
    } finally {
      await fsp.rm(directory, { recursive: true, force: true });
    }
  });
});
