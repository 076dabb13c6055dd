// Steps 16-18: a service whose answers the extension cannot read alone (issue 27, "Any service, read once and kept"),
// as a person meets it in the workbench. 16: a model list that could be read two ways; the person picks the list once
// with Choose How to Read…, and a reloaded window still reads it so. 17: a finetune whose status answers cannot be read
// stays running (its row says since when) and ends when its model appears in the list. 18: with the list unreadable,
// a model name typed once (and accepted by the service) is offered by Chat's model picker, and @hosted answers with it.
// The emulator's key is given another list shape for the step (the reset puts the run's keys back), its status answers
// are replaced by a fault (the reset clears faults).
import * as assert from 'node:assert/strict';
import type { Emulator, KeyConfig, ModelListShape } from '../service/emulator';
import { askHosted } from './chatSteps';
import type { Step } from './stepRunner';
import { actUntil, escapeRegExp, eventually, type Workbench } from './workbench';

export interface UnreadableEnvironment {
  readonly workbench: Workbench;
  readonly emu: Emulator;
  readonly key: string;
  readonly baseModel: string;
  /** The story's wizard: right-click the two PDFs → Create Finetuned Model…, the six answers for `name`, Start. */
  readonly answerWizard: (name: string) => Promise<void>;
  /** Set API Key… from the palette, the key typed, "API key saved". */
  readonly giveKey: () => Promise<void>;
}

const MODELS = 'Models';
const LIST_PATH = '/cr/get_allowed_models';
const STATUS_PATH = '/cr/generate_questions_status';
/** A status nothing reads (as the in-editor test's): a percent string and a word under a key that says no state. */
const UNREADABLE_STATUS = '{"pct":"40%","detail":"TRAINING_STEP"}';
const CONTRACT_ROW = 'The model list could not be read — choose how to read it';
const CHOOSE_TITLE = 'Choose How to Read the Model List';
/** The list the person picks of the two the `two-lists` shape offers (the one that lists every model). */
const CHOSEN_LIST = 'available.items[].ref';
/** README's picture of Choose How to Read…: the window, the side bar, and the part of the window shown. */
const WIDE_WINDOW = 1920;
const WIDE_SIDE_BAR = 560;
const README_CLIP = { width: 1290, height: 230 };
const CHAT_QUESTION = 'Which model answers?';
const INFERENCE_PATH = '/cr/provider_predict_platform_base_oss';

export function unreadableSteps({ workbench: wb, emu, key, baseModel, answerWizard, giveKey }: UnreadableEnvironment): Step[] {
  const page = wb.page;
  const config = (): KeyConfig => {
    const current = emu.options.keys[key];
    assert.ok(current, `the emulator has no key ${key}`);
    return current;
  };
  const withListShape = (modelListShape: ModelListShape): void => emu.setKey(key, { ...config(), modelListShape });
  const listRequests = (since: number) => emu.received.slice(since).filter((r) => r.path.startsWith(LIST_PATH) && r.status === 200);
  const baseRow = (model: string) => new RegExp(`^Base model ${escapeRegExp(model)}(,|$)`);

  /** Refresh Models from the palette, until the service was asked again (the view then shows what it answered). */
  const refreshModels = async (): Promise<void> => {
    const since = emu.received.length;
    await wb.runCommand('Hosted Reasoning: Refresh Models');
    await eventually('the model list to be asked for again', async () => (listRequests(since).length > 0 ? true : undefined));
  };

  /** The text of the active editor, whitespace folded, once it holds `holds`. */
  const editorText = (what: string, holds: RegExp): Promise<string> =>
    eventually(what, async () => {
      const text = (
        await page
          .locator('.part.editor .editor-instance .view-lines')
          .innerText({ timeout: 1_000 })
          .catch(() => '')
      ).replace(/\s+/g, ' ');
      return holds.test(text) ? text : undefined;
    });

  const chooseHowToRead: Step = {
    number: 16,
    id: 'choose-how-to-read',
    title: 'a model list read two ways: Choose How to Read… once, the models listed with their kinds, still read so after a reload',
    needs: ['api-key'],
    timeoutMs: 120_000,
    async run({ shot, note }) {
      const shape = config().modelListShape;
      withListShape('two-lists');
      await wb.showContainer('Hosted Reasoning');
      await refreshModels();
      const offer = await wb.waitForRow(MODELS, CONTRACT_ROW, undefined, 'text');
      // README's picture (test/e2e/readmeScreenshots.ts): a window wide enough for the row's words in a wider side bar
      // beside the choices (the quick pick opens over the window's middle).
      const size = page.viewportSize();
      await page.setViewportSize({ width: WIDE_WINDOW, height: size?.height ?? 900 });
      const width = await wb.resizeSideBar(WIDE_SIDE_BAR);
      // The row's command, as a person clicks it: the quick pick of the lists the answer holds, each with its names.
      await actUntil(
        'Choose How to Read… to open from the row',
        async () => {
          if (!(await wb.quickInput.isVisible())) await offer.click({ timeout: 5_000 });
        },
        () => wb.quickInputShowsTitle(CHOOSE_TITLE),
      );
      // Both lists, each naming a few of the models it reads: read until the quick pick shows them (it may fill its
      // rows after its title), and named in the failure.
      let offered: string[] = [];
      await eventually(
        () => `both lists offered, each naming ${baseModel} (offered: ${JSON.stringify(offered)})`,
        async () => {
          offered = (await wb.quickInput.getByRole('option').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
          return offered.length === 2 && offered.every((o) => o.includes(baseModel)) ? true : undefined;
        },
      );
      note(`offered: ${offered.join(' | ')}`);
      // README's picture: the row the person clicked and the choices it opened.
      await shot('choices', { x: 0, y: 0, ...README_CLIP });
      await wb.pickQuickPickItem(new RegExp(`^${escapeRegExp(CHOSEN_LIST)}`), 'the choice to be taken and the models listed', async () => {
        if (await wb.quickInput.isVisible()) return false;
        return wb.row(MODELS, baseRow(baseModel)).isVisible();
      });
      for (const model of config().models) await wb.waitForRow(MODELS, baseRow(model));
      note(`listed: ${(await wb.rowLabels(MODELS)).join(' | ')}`);
      await wb.resizeSideBar(width);
      if (size) await page.setViewportSize(size);

      // A fresh window: the browser workbench keeps the key in memory only, so the person gives it again; the list is
      // read at once by the way chosen, kept for the service.
      // The old page stays until the new one loads: the step waits for the new one, not for a workbench already there.
      const reloaded = page.waitForEvent('domcontentloaded', { timeout: 60_000 });
      // Awaited below; handled now, so that a palette failing first leaves no unhandled rejection behind.
      reloaded.catch(() => undefined);
      await wb.runCommand('Developer: Reload Window');
      await reloaded;
      await wb.ready(60_000);
      await wb.showContainer('Hosted Reasoning');
      const since = emu.received.length;
      await giveKey();
      for (const model of config().models) await wb.waitForRow(MODELS, baseRow(model), 30_000);
      assert.equal(await wb.rowShowing(MODELS, CONTRACT_ROW).count(), 0, 'the reloaded window asks nothing again');
      assert.ok(listRequests(since).length > 0, 'the reloaded window read a new list');
      await wb.runCommand('Hosted Reasoning: Show How the Service Is Read');
      const said = await editorText('the profile in words, as chosen', /as you chose it/);
      assert.match(said, new RegExp(`Model names: ${escapeRegExp(CHOSEN_LIST)} — ${escapeRegExp(baseModel)}`));
      assert.match(said, /kind from tier: foundation → base/);
      note(said.slice(0, 200));
      await shot('kept');

      // The service goes back to its own shape; the list is read afresh (the view lists it by its new shape).
      emu.setKey(key, { ...config(), modelListShape: shape });
      await wb.closeEditor(/How the service is read/);
      await refreshModels();
      for (const model of config().models) await wb.waitForRow(MODELS, baseRow(model));
    },
  };

  const unreadableStatus: Step = {
    number: 17,
    id: 'unreadable-status',
    title: 'a finetune whose status answers cannot be read stays running, says since when, and ends when its model is listed',
    needs: ['api-key'],
    timeoutMs: 150_000,
    async run({ shot, note }) {
      const name = 'lumen-unread';
      await wb.clearNotifications();
      // Held until the step has seen more than three unreadable answers, however long the poller's backoff takes on a
      // loaded machine; then let go, to end when its model is listed.
      emu.configure({ holdFinetunes: true });
      emu.faults.add({ path: STATUS_PATH, kind: 'body', status: 200, body: UNREADABLE_STATUS, times: 100_000 });
      const unreadAnswers = () => emu.received.filter((r) => r.path.startsWith(STATUS_PATH) && r.fault !== undefined).length;
      await answerWizard(name);
      await wb.statusBarItem('Hosted Reasoning: 1 job running').waitFor();
      await wb.showContainer('Hosted Reasoning');
      const row = await wb.waitForRow(
        'Jobs',
        new RegExp(`^Create ${escapeRegExp(name)}, status unreadable since \\d\\d:\\d\\d \\(Training step\\)`),
        30_000,
      );
      // Stop Following is offered on the row itself (inline), for a person who would rather let the job go.
      await actUntil(
        "the row's inline Stop Following to show",
        () => row.hover({ timeout: 5_000 }),
        () => row.getByRole('button', { name: 'Stop Following' }).isVisible(),
        { retryAfterMs: 2_000 },
      );
      await wb.restMouse();
      // More than three unreadable answers (three failed the job before issue 27): still running, still saying so.
      await eventually(
        () => `more than three unreadable status answers (${unreadAnswers()})`,
        async () => (unreadAnswers() > 3 ? true : undefined),
      );
      // Read together, and named in the failure: the Jobs rows and the status bar's entry.
      const running = wb.statusBarItem('Hosted Reasoning: 1 job running');
      let seen = {};
      await eventually(
        () => `the job still running and its row still saying so (${JSON.stringify(seen)})`,
        async () => {
          const [rowShown, runningShown] = [await row.isVisible(), await running.isVisible()];
          seen = {
            jobs: await wb.rowLabels('Jobs'),
            statusBar: await page.locator('.statusbar-item[aria-label^="Hosted Reasoning"]').allInnerTexts(),
          };
          return rowShown && runningShown ? true : undefined;
        },
      );
      note(`${unreadAnswers()} unreadable status answers; the row reads "${await row.getAttribute('aria-label')}"`);
      await shot('running');

      // The service makes the model; Refresh Jobs asks now (the poller would, after its backoff): the list names it.
      emu.configure({ holdFinetunes: false });
      await eventually(`the emulator to make ${name}`, async () => (emu.artifactPath(name, key) ? true : undefined));
      const ready = wb.notification(`Model ${name} is ready.`);
      await actUntil(
        'the job to end with its model listed',
        () => wb.runCommand('Hosted Reasoning: Refresh Jobs'),
        () => ready.isVisible(),
        { retryAfterMs: 10_000 },
      );
      await wb.waitForRow('Jobs', new RegExp(`^Create ${escapeRegExp(name)}, (?!status unreadable)`));
      await wb.waitForRow(MODELS, new RegExp(`^Custom model ${escapeRegExp(name)}\\b`));
      assert.equal(await wb.notification(/failed/i).count(), 0, 'no failure was announced');
      await shot('ended');
    },
  };

  const typedInChat: Step = {
    number: 18,
    id: 'chat-typed-model',
    title: 'a model list that cannot be read: a model name typed once is offered by Chat, and @hosted answers with it',
    needs: ['api-key'],
    timeoutMs: 120_000,
    async run({ shot, note }) {
      const typed = config().models.find((m) => m !== baseModel) ?? baseModel;
      const shape = config().modelListShape;
      withListShape('unreadable');
      await wb.showContainer('Hosted Reasoning');
      await refreshModels();
      await wb.waitForRow(MODELS, CONTRACT_ROW, undefined, 'text');

      // The person types the model's name where a picker asks for one (Evaluate Model…); the service accepts it.
      await wb.runCommand('Hosted Reasoning: Evaluate Model…');
      await wb.quickInput.locator('.quick-input-progress.done').waitFor();
      await wb.replaceQuickInputValue(typed);
      await wb.pickQuickPickItem(new RegExp(`^${escapeRegExp(typed)}`), 'the typed model to be taken and the dataset asked', () =>
        wb.quickInputShowsTitle(/dataset/i),
      );
      await wb.replaceQuickInputValue('demo-qa');
      await wb.pickQuickPickItem(/demo-qa/, 'the evaluation to start', () => wb.quickInputClosed());
      await wb
        .notification(new RegExp(`${escapeRegExp(typed)}.*demo-qa|demo-qa.*${escapeRegExp(typed)}`))
        .first()
        .waitFor({ timeout: 30_000 });
      note(`typed ${typed} in Evaluate Model…; the service accepted it`);
      await wb.waitForRow('Jobs', new RegExp(`^Evaluate ${escapeRegExp(typed)} on demo-qa`));
      await wb.clearNotifications();

      // Chat's model picker offers the kept names in place of the list; the person picks the typed one.
      await wb.runCommand('Chat: Open Chat');
      const chat = page.locator('.interactive-session').first();
      await chat.locator('.interactive-input-part .monaco-editor').first().waitFor();
      await chat.locator('.chat-mode-picker-item').getByText('Ask', { exact: true }).waitFor();
      const picker = chat.locator('.model-picker-item');
      const dropdown = page.locator('.context-view > .action-widget');
      const option = dropdown.getByRole('option', {
        name: new RegExp(`^${escapeRegExp(typed)}, typed, kept: the model list could not be read`),
      });
      let offeredInChat: string[] = [];
      await actUntil(
        () => `Chat's model picker to offer ${typed} as typed, and take it (it offered ${JSON.stringify(offeredInChat)})`,
        async () => {
          if (!(await dropdown.isVisible())) {
            await picker.click({ timeout: 5_000 });
            await dropdown.waitFor({ timeout: 5_000 });
          }
          // The picker shows some models and folds the others under *Other Models*: the person searches for the name.
          const search = dropdown.locator('.action-list-filter-input');
          if ((await search.isVisible()) && (await search.inputValue()) !== typed) await search.fill(typed, { timeout: 5_000 });
          // The dropdown fills its rows after it shows: the option is awaited a moment before the dropdown is closed
          // again (to be opened afresh, asking the provider again).
          const shown = await option.waitFor({ timeout: 3_000 }).then(
            () => true,
            () => false,
          );
          offeredInChat = await dropdown
            .getByRole('option')
            .evaluateAll((rows) => [...new Set(rows.map((r) => r.getAttribute('aria-label') ?? ''))]);
          if (shown) {
            await shot('picker');
            await option.click({ timeout: 5_000 });
          } else await page.keyboard.press('Escape');
        },
        async () => !(await dropdown.isVisible()) && (await picker.innerText()).trim() === typed,
      );
      note(`Chat's model picker offered: ${offeredInChat.join(' | ')}`);
      const asked = emu.received.length;
      await askHosted(wb, chat, CHAT_QUESTION);
      const response = chat.locator('.interactive-response').last();
      await response.getByText(`Answer from ${typed}`).waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal dialog (the Copilot sign-in) opened');
      await eventually('the service to have answered the participant', async () =>
        emu.received.slice(asked).some((r) => r.path.startsWith(INFERENCE_PATH) && r.status === 200) ? true : undefined,
      );
      await shot('answered');

      // The service lists its models again; so does the view (and Chat is given the list again).
      emu.setKey(key, { ...config(), modelListShape: shape });
      await refreshModels();
      await wb.showContainer('Hosted Reasoning');
      await wb.waitForRow(MODELS, baseRow(baseModel));
    },
  };

  return [chooseHowToRead, unreadableStatus, typedInChat];
}
