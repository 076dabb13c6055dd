// Step 22: the service's own knobs in VS Code's model menu (issue 39, part 1), on the newest host (1.139). Each of our
// models carries a configuration schema (src/features/chat/chatModelConfiguration.ts); 1.139 offers its properties as
// submenus of the model's context menu in *Chat: Manage Language Models* (a table in a modal editor). The person picks
// a budget there by keyboard alone (Tab to the table, arrows to the model's row, Shift+F10, arrows and Enter in the
// menu), then asks @hosted in Chat with that model: the emulator's record shows the budget the service received.
//
// A pick is judged by the submenu, opened again, showing it checked, never by the menu closing (pickInModelMenu): a run
// here once asked with the setting's budget (8) after a pick the step had taken for made (not seen again in 17 runs,
// with the workbench's state logged). Not the race once suspected: VS Code 1.139's language model service, each time it
// resolves a vendor's models (*Manage Language Models* makes it on opening, and it did again for every vendor seconds
// later), clears that vendor's model configurations and restores them, but from the profile's language models file as
// read once the vendor has answered, and a pick is written to that file before it is applied: a pick made while a
// resolution of our vendor was held in flight for 25 s (injected into the workbench) reached the request.
// The step picks *as in Settings* again at its end, so a later *Manage Language Models* shows the setting's budget. The
// Chat left open keeps asking with 32 (its input follows a model's configuration only until it holds one: see
// chatModelConfiguration.ts); no later step asks in it.
import * as assert from 'node:assert/strict';
import type { Emulator } from '../service/emulator';
import { askHosted } from './chatSteps';
import type { Step } from './stepRunner';
import { actUntil, eventually, type Workbench } from './workbench';

export interface ModelConfigurationEnvironment {
  readonly workbench: Workbench;
  readonly emu: Emulator;
}

const INFERENCE_PATH = '/cr/provider_predict_platform_base_oss';
const QUESTION = 'How many steps may you take?';
/** Not the setting's default (8), so the budget the service receives can only come from the menu. */
const PICKED_BUDGET = 32;

/** The open context menu's deepest level (a submenu once one is open): its items' labels, the focused and checked ones. */
interface MenuLevel {
  labels: string[];
  focused: number;
  /** The item shown checked (`aria-checked`, what a screen reader says), -1 when none is. */
  checked: number;
}

export function modelConfigurationSteps({ workbench: wb, emu }: ModelConfigurationEnvironment): Step[] {
  const page = wb.page;
  const dialog = wb.modalEditor.filter({ has: page.locator('.modal-editor-title', { hasText: 'Language Models' }) });
  const menuShown = async (): Promise<boolean> => (await page.locator('.context-view .monaco-menu').count()) > 0;

  /** What has the keyboard focus, by what the steps below tell apart. */
  const focusIn = (): Promise<{ inTable: boolean; row: string | undefined }> =>
    page.evaluate(() => {
      const active = document.activeElement;
      const list = active?.closest('.modal-editor-part .monaco-list[aria-label="Language Models"]');
      const row = list?.querySelector('.monaco-list-row.focused .model-name');
      return { inTable: list !== null && list !== undefined, row: row?.textContent?.trim() };
    });

  const menuLevel = (): Promise<MenuLevel | undefined> =>
    page.evaluate(() => {
      const menus = Array.from(document.querySelectorAll('.context-view .monaco-menu'));
      const deepest = menus[menus.length - 1];
      const items = Array.from(deepest?.querySelector('.actions-container')?.children ?? []).filter((li) =>
        li.querySelector('.action-menu-item'),
      );
      if (items.length === 0) return undefined;
      return {
        labels: items.map((li) => li.querySelector('.action-label')?.textContent?.trim() ?? ''),
        focused: items.findIndex((li) => li.classList.contains('focused')),
        checked: items.findIndex((li) => li.querySelector('.action-menu-item')?.getAttribute('aria-checked') === 'true'),
      };
    });

  /** Arrows to the item whose label `matches` in the menu's deepest level, one key at a time, each seen taken. */
  async function focusMenuItem(what: string, matches: (label: string) => boolean): Promise<void> {
    let seen: MenuLevel | undefined;
    const at = async (): Promise<boolean> => {
      seen = await menuLevel();
      return seen !== undefined && seen.focused >= 0 && matches(seen.labels[seen.focused] ?? '');
    };
    await actUntil(
      () => `the menu's ${what} focused (it shows ${JSON.stringify(seen)})`,
      async () => {
        const target = seen?.labels.findIndex(matches) ?? -1;
        if (!seen || target < 0) return;
        await page.keyboard.press(seen.focused > target ? 'ArrowUp' : 'ArrowDown');
      },
      at,
      { retryAfterMs: 1_000 },
    );
  }

  /**
   * In *Chat: Manage Language Models*, by keyboard: `knob`'s submenu in the context menu of `model`'s row, open; the
   * editor is opened (with the caret in its search box, Tab moves on to the table), the row reached and the menu opened
   * only where a try before left them otherwise.
   */
  async function openKnobSubmenu(model: string, knob: string, inSubmenu: () => Promise<boolean>): Promise<void> {
    if (await inSubmenu()) return;
    if (!(await menuShown())) {
      if (!(await dialog.isVisible())) await wb.runCommand('Chat: Manage Language Models');
      await dialog.locator('.monaco-list-row', { hasText: model }).first().waitFor();
      let focus = await focusIn();
      await actUntil(
        () => `the keyboard focus in the models table (${JSON.stringify(focus)})`,
        () => page.keyboard.press('Tab'),
        async () => (focus = await focusIn()).inTable,
        { retryAfterMs: 1_000 },
      );
      // The table takes the focus without a focused row: the first arrow focuses the first one.
      const names = async (): Promise<string[]> => dialog.locator('.monaco-list-row .model-name').allInnerTexts();
      let rows: string[] = [];
      await actUntil(
        () => `the row of ${model} focused (rows ${JSON.stringify(rows)}, focused ${JSON.stringify(focus.row)})`,
        async () => {
          rows = (await names()).map((n) => n.trim());
          const target = rows.findIndex((n) => n === model);
          const current = focus.row === undefined ? -1 : rows.indexOf(focus.row);
          await page.keyboard.press(current > target ? 'ArrowUp' : 'ArrowDown');
        },
        async () => (focus = await focusIn()).row === model,
        { retryAfterMs: 1_000 },
      );
      await actUntil(
        `the context menu of ${model} offering ${knob}`,
        async () => {
          if (!(await menuShown())) await page.keyboard.press('Shift+F10');
        },
        async () => (await menuLevel())?.labels.includes(knob) ?? false,
        { retryAfterMs: 2_000 },
      );
    }
    await focusMenuItem(knob, (label) => label === knob);
    await actUntil(`the submenu ${knob} open`, () => page.keyboard.press('ArrowRight'), inSubmenu, { retryAfterMs: 2_000 });
  }

  /** Escape closes the menu a level at a time; pressed only while one shows (with none, it would close the editor). */
  async function closeMenu(): Promise<void> {
    await actUntil(
      'the model’s menu closed',
      async () => {
        if (await menuShown()) await page.keyboard.press('Escape');
      },
      async () => !(await menuShown()),
      { retryAfterMs: 1_000 },
    );
  }

  /**
   * Picks the item `choice` matches in `knob`'s submenu of `model` (openKnobSubmenu), by keyboard, until the submenu,
   * opened afresh, shows that item checked: what the language model service holds for the model (VS Code 1.139 draws
   * the checks from it when the menu opens), which an open Chat's next request carries. The menu closing after Enter
   * proves nothing: an Enter can be lost, the menu can close without a pick, and a pick VS Code drops leaves no other
   * trace (a dropped pick, injected into the workbench, failed the step at its end with sequential_budget 8, as CI's
   * flake did). VS Code applies a pick only once it has written it to the profile's language models file (1-2 s under
   * load), and an open menu shows what held when it opened, so the look opens the menu again each time, and the pick
   * is made again only after a while without it shown; picking the checked item again changes nothing.
   */
  async function pickInModelMenu(model: string, knob: string, choice: (label: string) => boolean, what: string): Promise<void> {
    let seen: MenuLevel | undefined;
    const inSubmenu = async (): Promise<boolean> => ((seen = await menuLevel())?.labels ?? []).some(choice);
    const shownChecked = async (): Promise<boolean> => {
      await closeMenu();
      await openKnobSubmenu(model, knob, inSubmenu);
      return seen !== undefined && choice(seen.labels[seen.checked] ?? '');
    };
    await actUntil(
      () => `${what} shown checked in the ${knob} submenu of ${model} (it shows ${JSON.stringify(seen)})`,
      async () => {
        if (!(await inSubmenu())) await openKnobSubmenu(model, knob, inSubmenu);
        await focusMenuItem(what, choice);
        await actUntil(
          `${what} picked, the menu closed`,
          async () => {
            const level = await menuLevel();
            if (level && choice(level.labels[level.focused] ?? '')) await page.keyboard.press('Enter');
          },
          async () => !(await menuShown()),
          { retryAfterMs: 2_000 },
        );
      },
      shownChecked,
      { retryAfterMs: 10_000, timeoutMs: 120_000 },
    );
    await closeMenu();
    await wb.closeEditor('Language Models');
  }

  const budget: Step = {
    number: 22,
    id: 'chat-model-budget',
    title: 'picks a Sequential Budget in the model’s menu of Chat: Manage Language Models by keyboard; @hosted asks with it',
    needs: ['api-key'],
    timeoutMs: 240_000,
    async run({ shot, note }) {
      const openChat = () => wb.runCommand('Hosted Reasoning: Ask in Chat');
      await openChat();
      const chat = page.locator('.interactive-session').first();
      await chat.locator('.interactive-input-part .monaco-editor').first().waitFor();
      await chat.locator('.chat-mode-picker-item').getByText('Ask', { exact: true }).waitFor();
      // The model Chat asks with: one of the Models view's rows (read again on every try, the picker still filling).
      const picked = await eventually('one of our models picked in the Chat view', async () => {
        const rows = await page.locator('.part.sidebar .monaco-list-row .label-name').allInnerTexts();
        const shown = (await chat.locator('.model-picker-item').innerText()).trim().replace(/…$/, '');
        return shown && rows.includes(shown) ? shown : undefined;
      });
      note(`Chat asks with ${picked}`);

      const steps = `${PICKED_BUDGET} steps`;
      await pickInModelMenu(picked, 'Sequential Budget', (label) => label === steps, steps);
      note(`picked ${steps} in the menu of ${picked}`);

      const asked = emu.received.length;
      await askHosted(wb, chat, QUESTION, undefined, openChat);
      const response = chat.locator('.interactive-response').last();
      await response
        .getByText(/Answer from/)
        .first()
        .waitFor({ timeout: 30_000 });
      await shot('answered');
      const inference = await eventually('the service to have received the question', async () =>
        emu.received
          .slice(asked)
          .map((r) => (r.path.startsWith(INFERENCE_PATH) ? r.inference : undefined))
          .find((i) => i?.queryOnly === QUESTION || i?.prompt.endsWith(QUESTION)),
      );
      assert.equal(inference.modelName, picked, 'the model Chat asked with');
      assert.equal(inference.sequentialBudget, PICKED_BUDGET, 'the Sequential Budget picked in the model’s menu');
      note(`the service received sequential_budget ${inference.sequentialBudget} for ${inference.modelName}`);

      // Back to the setting's budget in the model's menu (its first item).
      await pickInModelMenu(picked, 'Sequential Budget', (label) => label.startsWith('Steps as in Settings'), 'Steps as in Settings');
    },
  };

  return [budget];
}
