// What a person does in the VS Code workbench, as Playwright locators and actions: the activity bar, views and their
// tree rows, the command palette and quick inputs, context menus, notifications and the status bar. Locators go by
// role and accessible name where the workbench provides them (trees, tree items, menu items, buttons); class names
// only where it has nothing better (the quick input widget, notification toasts, status bar items).
import type { Locator, Page } from 'playwright-core';

/** Where the mouse rests after a click that would otherwise leave a hover tooltip over what comes next. */
const RESTING_POINT = { x: 900, y: 650 };
/** One try of an action inside `actUntil`: short, so a try that missed leaves time for the next. */
const ACTION_TIMEOUT_MS = 5_000;
/** A dragged sash lands within this many pixels of where it was dragged to. */
const SIDE_BAR_SLACK_PX = 2;

export class Workbench {
  constructor(readonly page: Page) {}

  /** Waits until the workbench has rendered and our view container is in the activity bar (contributions loaded). */
  async ready(timeoutMs: number): Promise<void> {
    await this.page.locator('.monaco-workbench').waitFor({ timeout: timeoutMs });
    await this.activityTab('Hosted Reasoning').waitFor({ timeout: timeoutMs });
  }

  /** An activity bar entry (a tab), by the start of its label: 'Explorer', 'Hosted Reasoning'. */
  activityTab(label: string): Locator {
    return this.page.locator(`.activitybar .action-item[role="tab"]:has(a[aria-label^="${label}"])`);
  }

  /**
   * Shows a view container through its activity bar icon; a click on the one already shown would hide the side bar.
   * The tab can be selected while the side bar is hidden (1.139 reopened a window so after the Chat view had been in
   * the secondary side bar): a click then shows it.
   */
  async showContainer(label: string): Promise<void> {
    const tab = this.activityTab(label);
    const sideBar = this.page.locator('.part.sidebar');
    const shown = async () => (await tab.getAttribute('aria-selected')) === 'true' && (await sideBar.isVisible());
    // A click on the tab toggles the side bar, so it is looked at again before each click: in a window that has just
    // opened, the layout it restores may show or hide the side bar after the first look (a click then hid it).
    await actUntil(
      `the ${label} container to show in the side bar`,
      async () => {
        // The tab, not its icon: a badge ("1 unsaved file") drawn over the icon would take the click.
        await tab.click({ timeout: ACTION_TIMEOUT_MS });
        await this.restMouse();
      },
      shown,
      { retryAfterMs: 3_000 },
    );
  }

  /**
   * Opens the Settings editor and searches for `query` until `shown` holds (the setting's field is drawn). The search
   * box has the caret once the editor is drawn; keys sent before then were lost: the person clicks into it, and
   * searches again until the setting shows.
   */
  async searchSettings(query: string, shown: () => Promise<boolean>): Promise<void> {
    await this.runCommand('Preferences: Open User Settings');
    await this.page.locator('.settings-editor').waitFor();
    const search = this.page.locator('.settings-editor .search-container .monaco-editor');
    await actUntil(
      `the Settings editor to show ${query}`,
      async () => {
        await search.click({ timeout: ACTION_TIMEOUT_MS });
        await this.page.keyboard.press('Control+A');
        await this.page.keyboard.insertText(query);
      },
      shown,
    );
  }

  /** Moves the mouse off the activity bar and trees, so no hover tooltip covers the next target. */
  async restMouse(): Promise<void> {
    await this.page.mouse.move(RESTING_POINT.x, RESTING_POINT.y);
  }

  /**
   * A view's section in the side bar (header and body), by the view's name. The header is labelled "<name> Section",
   * or "<name> - <description> Section" while the view has a description (the Models view names its service).
   */
  pane(viewName: string): Locator {
    // By the header's title: its aria-label also carries the view's description (the Models view names its service).
    const title = this.page.locator('h3.title', { hasText: new RegExp(`^${viewName}$`) });
    return this.page.locator('.pane').filter({ has: this.page.locator('.pane-header').filter({ has: title }) });
  }

  /** A view's tree ('Models', 'Jobs', 'Files Explorer'). */
  tree(name: string): Locator {
    return this.page.getByRole('tree', { name, exact: true });
  }

  /** A row of a tree by its accessible label (which for our models reads "Custom model x, accuracy …"). */
  row(tree: string, label: string | RegExp): Locator {
    return this.tree(tree).getByRole('treeitem', { name: label, exact: typeof label === 'string' });
  }

  /** A row of a tree by the text it shows (for rows whose accessible label is something else, e.g. their tooltip). */
  rowShowing(tree: string, text: string | RegExp): Locator {
    return this.tree(tree).getByRole('treeitem').filter({ hasText: text });
  }

  /**
   * Waits for a row, by accessible label or by the text it shows; when it does not come, the error lists the rows the
   * tree has instead.
   */
  async waitForRow(tree: string, label: string | RegExp, timeoutMs?: number, by: 'label' | 'text' = 'label'): Promise<Locator> {
    const row = by === 'label' ? this.row(tree, label) : this.rowShowing(tree, label);
    try {
      await row.waitFor({ timeout: timeoutMs });
    } catch (error) {
      const seen = await this.rowLabels(tree).catch(() => []);
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new Error(`no row ${String(label)} in the ${tree} tree (${message}); rows: ${JSON.stringify(seen)}`, { cause: error });
    }
    return row;
  }

  /** The accessible labels of a tree's rows, top to bottom. */
  async rowLabels(tree: string): Promise<string[]> {
    return this.tree(tree)
      .getByRole('treeitem')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label') ?? ''));
  }

  /**
   * Right-clicks `target` and picks `item` from its context menu. The item is pointed at and chosen with Enter: a
   * click that lands while the menu is still settling is swallowed by the menu (seen: the item highlights, nothing
   * runs), while a focused item always runs on Enter. Each part is done again until its effect shows: a right-click
   * on a row the tree is re-rendering opens no menu.
   */
  async contextMenu(target: Locator, item: string | RegExp): Promise<void> {
    const menu = this.page.locator('.context-view .monaco-menu');
    // Page-wide: a locator given to `has` is matched inside the filtered element, not from the menu.
    const entry = this.page.getByRole('menuitem', { name: item });
    const focused = this.page.locator('.monaco-menu .action-item.focused').filter({ has: entry });
    await actUntil(
      `a context menu offering ${String(item)}`,
      async () => {
        // A menu without the item (opened on another row) is closed first, so the right-click opens the right one.
        if (await menu.isVisible()) await this.page.keyboard.press('Escape');
        await target.click({ button: 'right', timeout: ACTION_TIMEOUT_MS });
      },
      () => entry.isVisible(),
    );
    await actUntil(
      `the context menu's ${String(item)} to be focused`,
      () => entry.hover({ timeout: ACTION_TIMEOUT_MS }),
      () => focused.isVisible(),
      {
        retryAfterMs: 2_000,
      },
    );
    // Enter again only while the menu still shows the item focused: then the first Enter was not taken.
    await actUntil(
      `the context menu to run ${String(item)} and close`,
      async () => {
        if (await focused.isVisible()) await this.page.keyboard.press('Enter');
        else await entry.hover({ timeout: ACTION_TIMEOUT_MS });
      },
      async () => (await menu.count()) === 0,
    );
    await this.restMouse();
  }

  /**
   * Clicks an inline action button of a tree row (shown on hover), by its title, until `done` holds (what the action
   * causes: a panel, a dialog, a download asked of the service). The pointer on the row shows its buttons; a row the
   * tree re-renders under the pointer hides them again, and a click on a button being re-rendered is lost (the step
   * then waited for an effect that never came). What it does (a download, a new panel) is not safe to do twice, so
   * `done` is looked at before every click and a click is repeated only after `retryAfterMs` without an effect.
   */
  async inlineAction(
    row: Locator,
    title: string | RegExp,
    done: { readonly what: Awaiting; readonly holds: () => Promise<boolean>; readonly retryAfterMs?: number },
  ): Promise<void> {
    const button = row.getByRole('button', { name: title });
    await actUntil(
      done.what,
      async () => {
        await actUntil(
          `the row's inline action ${String(title)} to show`,
          () => row.hover({ timeout: ACTION_TIMEOUT_MS }),
          () => button.isVisible(),
          { retryAfterMs: 2_000 },
        );
        await button.click({ timeout: ACTION_TIMEOUT_MS });
        await this.restMouse();
      },
      done.holds,
      { retryAfterMs: done.retryAfterMs ?? 10_000 },
    );
  }

  /**
   * The modal editor part of VS Code 1.10x+ (`workbench.editor.useModal`, "some" by default): the Settings editor opens
   * over the workbench, with a title and a close button instead of a tab.
   */
  get modalEditor(): Locator {
    return this.page.locator('.modal-editor-part');
  }

  /** Closes an editor through the close button of its tab, or of the modal editor showing it. */
  async closeEditor(title: string | RegExp): Promise<void> {
    const modal = this.modalEditor.filter({ has: this.page.locator('.modal-editor-title', { hasText: title }) });
    const tab = this.page.getByRole('tab', { name: title });
    await modal.or(tab).first().waitFor();
    if (await modal.isVisible()) {
      await actUntil(
        `the modal editor ${String(title)} to close`,
        () =>
          modal
            .getByRole('button', { name: /^Close/ })
            .first()
            .click({ timeout: ACTION_TIMEOUT_MS }),
        async () => !(await modal.isVisible()),
      );
    } else {
      await actUntil(
        `the editor ${String(title)} to close`,
        async () => {
          await tab.hover({ timeout: ACTION_TIMEOUT_MS });
          await tab.getByRole('button', { name: /^Close/ }).click({ timeout: ACTION_TIMEOUT_MS });
        },
        async () => (await tab.count()) === 0,
      );
    }
    await this.restMouse();
  }

  /** Drags the side bar's edge (the sash beside it) so the side bar is `width` pixels wide; returns the width it had. */
  async resizeSideBar(width: number): Promise<number> {
    const sideBar = this.page.locator('.part.sidebar');
    const before = await sideBar.boundingBox();
    if (!before) throw new Error('the side bar is not shown');
    let seen = before.width;
    // A drag that starts while the layout is still moving misses the sash: the width is read back, and the drag
    // done again from where the edge is now.
    await actUntil(
      () => `the side bar to be ${width} px wide (it is ${seen} px)`,
      async () => {
        const box = await sideBar.boundingBox();
        if (!box) throw new Error('the side bar is not shown');
        const y = box.y + box.height / 2;
        await this.page.mouse.move(box.x + box.width, y);
        await this.page.mouse.down();
        await this.page.mouse.move(box.x + width, y, { steps: 5 });
        await this.page.mouse.up();
        await this.restMouse();
      },
      async () => Math.abs((seen = (await sideBar.boundingBox())?.width ?? 0) - width) <= SIDE_BAR_SLACK_PX,
      { retryAfterMs: 2_000 },
    );
    return before.width;
  }

  // ---------------------------------------------------------------------------------------------- quick input

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** The quick input's text box (the palette filter, an input box, a quick pick filter). */
  get quickInputBox(): Locator {
    return this.quickInput.locator('.quick-input-box input');
  }

  /** Waits for a quick input whose title contains `text` (e.g. 'Create Finetuned Model from 2 files (3/6)'). */
  async quickInputTitled(text: string | RegExp): Promise<void> {
    await this.quickInput.locator('.quick-input-title', { hasText: text }).waitFor();
  }

  /** Whether the quick input's box has the caret (keys go there). */
  private async quickInputFocused(): Promise<boolean> {
    return this.quickInputBox.evaluate((el) => el === document.activeElement).catch(() => false);
  }

  /**
   * Replaces the whole value of the open quick input with `text`, as a person does it: the caret in the box (a box
   * that is still being filled in moves the caret and the selection; one that opened while the focus was in a webview
   * may not have it: the person clicks into it), all of it selected and seen selected, the text inserted and read
   * back; the whole done again if the box does not read the text. Enter is the caller's (`acceptQuickInput`).
   */
  async replaceQuickInputValue(text: string): Promise<void> {
    const box = this.quickInputBox;
    let seen = '';
    await actUntil(
      () => `the quick input to read ${JSON.stringify(text)} (it reads ${JSON.stringify(seen)})`,
      async () => {
        await actUntil(
          'the caret in the quick input',
          () => box.focus({ timeout: ACTION_TIMEOUT_MS }),
          () => this.quickInputFocused(),
          {
            retryAfterMs: 2_000,
          },
        );
        await actUntil(
          'the whole value of the quick input to be selected',
          () => this.page.keyboard.press('Control+A'),
          () => box.evaluate((el: HTMLInputElement) => el.selectionStart === 0 && el.selectionEnd === el.value.length),
          { retryAfterMs: 2_000 },
        );
        await this.page.keyboard.insertText(text);
      },
      async () => (seen = await box.inputValue()) === text,
    );
  }

  /**
   * Enter in the quick input, until `accepted` holds (the next step's title, the box gone, the service's refusal). A
   * key pressed while the box was busy or not yet focused is lost; Enter is pressed again only while the box still
   * shows what it showed (same title, same value) and has the caret, so it never reaches what comes next.
   */
  async acceptQuickInput(what: Awaiting, accepted: () => Promise<boolean>): Promise<void> {
    const title = await this.quickInput.locator('.quick-input-title').innerText();
    const value = await this.quickInputBox.inputValue();
    const unchanged = async (): Promise<boolean> =>
      (await this.quickInput.isVisible()) &&
      (await this.quickInput.locator('.quick-input-title').innerText({ timeout: ACTION_TIMEOUT_MS })) === title &&
      (await this.quickInputBox.inputValue({ timeout: ACTION_TIMEOUT_MS })) === value;
    await actUntil(
      what,
      async () => {
        if (!(await unchanged())) return;
        if (!(await this.quickInputFocused())) await this.quickInputBox.focus({ timeout: ACTION_TIMEOUT_MS });
        await this.page.keyboard.press('Enter');
      },
      accepted,
    );
  }

  /**
   * Clicks an item of the open quick pick until `accepted` holds (a click on a list still re-rendering is lost). The
   * item is clicked only while it is there: once taken, the quick pick moves on and the item is gone.
   */
  async pickQuickPickItem(label: string | RegExp, what: Awaiting, accepted: () => Promise<boolean>): Promise<void> {
    const item = this.quickPickItem(label);
    await actUntil(
      what,
      async () => {
        if (await item.isVisible()) await item.click({ timeout: ACTION_TIMEOUT_MS });
      },
      accepted,
    );
  }

  /** Whether no quick input shows (the palette, a box or a save dialog took its answer, or was closed). */
  async quickInputClosed(): Promise<boolean> {
    return !(await this.quickInput.isVisible());
  }

  /** Whether the quick input is open with a title containing `text`. */
  async quickInputShowsTitle(text: string | RegExp): Promise<boolean> {
    return this.quickInput.locator('.quick-input-title', { hasText: text }).isVisible();
  }

  /** An item of the open quick pick, by the start of its accessible label. */
  quickPickItem(label: string | RegExp): Locator {
    return this.quickInput.getByRole('option', { name: label });
  }

  /**
   * F1, enters the command's title and runs that exact entry. The title goes in as one insertion (as a paste
   * would): typed key by key, the palette re-filters on every key and a title takes seconds. The person presses Enter
   * once the entry is the highlighted one (a click on it while the list was still re-rendering was lost: the palette
   * stayed open), and sees the palette take it (it closes, or the command's own input replaces it). F1 pressed while
   * the focus was in a webview, or while the window was still starting, was lost: it is pressed until the palette
   * shows; the title is read back before the list is looked at.
   */
  async runCommand(title: string): Promise<void> {
    const box = this.quickInputBox;
    // F1 on an open palette would not open a second: it is pressed only while none shows.
    await actUntil(
      'the command palette to open',
      () => this.page.keyboard.press('F1'),
      () => box.isVisible(),
    );
    // The palette opens holding its prefix, ">".
    const typed = `>${title}`;
    let seen = '';
    await actUntil(
      () => `the command palette to read ${JSON.stringify(typed)} (it reads ${JSON.stringify(seen)})`,
      async () => {
        if (!(await this.quickInputFocused())) await box.focus({ timeout: ACTION_TIMEOUT_MS });
        await this.page.keyboard.press('Control+A');
        await this.page.keyboard.insertText(typed);
      },
      async () => (seen = await box.inputValue()) === typed,
      { retryAfterMs: 2_000 },
    );
    const rows = this.quickInput.locator('.monaco-list-row');
    const highlighted = this.quickInput.locator('.monaco-list-row.focused');
    // The entry itself, not one whose title only starts the same ("… (JSON)", "File: Compare New Untitled Text Files"
    // ranks above "File: New Untitled Text File"): the person moves to it.
    // The palette's label is the title (with the "…" some titles end in), then ", " and what else it shows.
    const exact = (label: string | null): boolean => label?.split(', ')[0]?.replace(/(\.\.\.|…)$/, '') === title.replace(/(\.\.\.|…)$/, '');
    const isHighlighted = async (): Promise<boolean> =>
      exact(await highlighted.getAttribute('aria-label', { timeout: 1_000 }).catch(() => null));
    let labels: (string | null)[] = [];
    /** One key towards the entry: down or up from the highlighted row (a key that came late may have passed it). */
    const moveTowardsEntry = async (): Promise<void> => {
      const rowStates = await rows.evaluateAll((list) =>
        list.map((row) => ({ label: row.getAttribute('aria-label'), focused: row.classList.contains('focused') })),
      );
      labels = rowStates.map((row) => row.label);
      const target = labels.findIndex(exact);
      if (target < 0) return;
      const at = rowStates.findIndex((row) => row.focused);
      await this.page.keyboard.press(at > target ? 'ArrowUp' : 'ArrowDown');
    };
    await actUntil(
      () => `the palette to highlight ${JSON.stringify(title)} (it lists ${JSON.stringify(labels)})`,
      moveTowardsEntry,
      isHighlighted,
      {
        retryAfterMs: 1_000,
      },
    );
    await actUntil(
      `the palette to run ${JSON.stringify(title)}`,
      async () => {
        // Enter only on the entry, in the palette as it was: once taken, the palette closes or the command's own input
        // replaces it, and a second Enter would reach that.
        if ((await box.inputValue({ timeout: ACTION_TIMEOUT_MS }).catch(() => '')) !== typed) return;
        if (await isHighlighted()) await this.page.keyboard.press('Enter');
        else await moveTowardsEntry();
      },
      async () => !(await this.quickInput.isVisible()) || (await box.inputValue().catch(() => '')) !== typed,
    );
  }

  // ---------------------------------------------------------------------------------------------- notifications

  /** A notification toast by (part of) its message. */
  notification(text: string | RegExp): Locator {
    return this.page.locator('.notification-toast').filter({ hasText: text });
  }

  /** The buttons a toast offers, by label. */
  async notificationActions(toast: Locator): Promise<string[]> {
    return toast.locator('.notification-list-item-buttons-container .monaco-button').allInnerTexts();
  }

  /**
   * Clears every notification (palette: "Notifications: Clear All Notifications"), so the next step's stand alone.
   * The command is run again while toasts remain (one that came after the clear, a clear the palette lost); the
   * failure names the toasts still shown (one showing progress cannot be cleared).
   */
  async clearNotifications(): Promise<void> {
    const toasts = this.page.locator('.notification-toast');
    let shown: string[] = [];
    await actUntil(
      () => `every notification to be cleared (still shown: ${JSON.stringify(shown)})`,
      () => this.runCommand('Notifications: Clear All Notifications'),
      async () => {
        shown = (await toasts.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim().slice(0, 120));
        return shown.length === 0;
      },
      { retryAfterMs: 3_000 },
    );
  }

  // ---------------------------------------------------------------------------------------------- status bar

  /** A status bar entry by the start of its accessible label. */
  statusBarItem(labelStart: string): Locator {
    return this.page.locator(`.statusbar-item[aria-label^="${labelStart}"]`);
  }

  /** Text shown anywhere in the status bar (an extension's message: "Evaluating m on d…"). */
  statusBarText(text: string | RegExp): Locator {
    return this.page.locator('.part.statusbar').getByText(text);
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What one `eventually` or `actUntil` waits for, said in its failure: a function is read at the failure, so it can
 * name the last value seen.
 */
export type Awaiting = string | (() => string);

function describeAwaited(what: Awaiting): string {
  return typeof what === 'string' ? what : what();
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Bounds for a cold, loaded CI machine (2 cores, a build beside it): a state the workbench reaches in a second here
 * was seen to take ten there. Generous, since a passing step never waits them out.
 */
export const WAIT_TIMEOUT_MS = 30_000;

/**
 * Polls `probe` until it returns a value that is not undefined; fails after `timeoutMs` naming `what`. For waits only:
 * an action goes through `actUntil`.
 */
export async function eventually<T>(
  what: Awaiting,
  probe: () => Promise<T | undefined>,
  timeoutMs = WAIT_TIMEOUT_MS,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${describeAwaited(what)}`);
    await sleep(intervalMs);
  }
}

export interface ActUntilOptions {
  /** The bound on the whole, every try included. */
  readonly timeoutMs?: number;
  /** How long one try's effect is awaited before the action is done again. */
  readonly retryAfterMs?: number;
}

/**
 * Does `act` until `holds`, within a bound, then fails naming what was awaited (and how the last try failed): the one
 * way a step acts on the workbench. An action taken while the workbench is busy can be lost (a Ctrl+click while an
 * editor opens, a key before the box has the caret, a click on a list still re-rendering), so its effect is awaited,
 * and the action done again when it does not come. `holds` is looked at before every try, so a toggle (a Ctrl+click,
 * a click on a tab) is never done twice over an effect that came late; `act` must be safe to repeat while `holds` is
 * false. A try that throws (its target not there yet) counts as a try without effect.
 */
export async function actUntil(
  what: Awaiting,
  act: () => Promise<void>,
  holds: () => Promise<boolean>,
  { timeoutMs = WAIT_TIMEOUT_MS, retryAfterMs = 5_000 }: ActUntilOptions = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let tries = 0;
  let lastError = '';
  const firstLine = (error: unknown): string => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  // A look that throws (a frame not there yet) is a "not yet".
  const held = (): Promise<boolean> =>
    holds().catch((error: unknown) => {
      lastError = `looking: ${firstLine(error)}`;
      return false;
    });
  const started = Date.now();
  for (;;) {
    if (await held()) {
      // A repeated action is worth seeing in the run's output: it is what a single try would have failed on.
      if (tries > 1) {
        console.log(`[e2e]       (${tries} tries, ${((Date.now() - started) / 1000).toFixed(1)} s, for ${describeAwaited(what)})`);
      }
      return;
    }
    if (Date.now() > deadline) {
      const failure = lastError ? `; last: ${lastError}` : '';
      throw new Error(`timed out after ${timeoutMs / 1000} s and ${tries} tries waiting for ${describeAwaited(what)}${failure}`);
    }
    tries++;
    try {
      await act();
    } catch (error) {
      lastError = `acting: ${firstLine(error)}`;
    }
    const tryEnds = Math.min(deadline, Date.now() + retryAfterMs);
    while (Date.now() < tryEnds && !(await held())) await sleep(100);
  }
}
