// What a person does in the VS Code workbench, as Playwright locators and actions: the activity bar, views and their
// tree rows, the command palette and quick inputs, context menus, notifications and the status bar. Locators go by
// role and accessible name where the workbench provides them (trees, tree items, menu items, buttons); class names
// only where it has nothing better (the quick input widget, notification toasts, status bar items).
import type { Locator, Page } from 'playwright-core';

/** Where the mouse rests after a click that would otherwise leave a hover tooltip over what comes next. */
const RESTING_POINT = { x: 900, y: 650 };

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
    const selected = this.page.locator(`.activitybar .action-item[role="tab"][aria-selected="true"]:has(a[aria-label^="${label}"])`);
    const shown = async () => (await tab.getAttribute('aria-selected')) === 'true' && (await sideBar.isVisible());
    // A click on the tab toggles the side bar, so it is looked at again after each click: in a window that has just
    // opened, the layout it restores may show or hide the side bar after the first look (a click then hid it).
    await eventually(
      `the ${label} container to show in the side bar`,
      async () => {
        if (await shown()) return true;
        // The tab, not its icon: a badge ("1 unsaved file") drawn over the icon would take the click.
        await tab.click();
        await this.restMouse();
        await Promise.all([selected.waitFor({ timeout: 2_000 }), sideBar.waitFor({ timeout: 2_000 })]).catch(() => undefined);
        return (await shown()) || undefined;
      },
      20_000,
      250,
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
   * runs), while a focused item always runs on Enter.
   */
  async contextMenu(target: Locator, item: string | RegExp): Promise<void> {
    await target.click({ button: 'right' });
    const entry = this.page.getByRole('menuitem', { name: item });
    await entry.hover();
    await this.page.locator('.monaco-menu .action-item.focused').filter({ has: entry }).waitFor();
    await this.page.keyboard.press('Enter');
    await this.page.locator('.monaco-menu').waitFor({ state: 'detached' });
    await this.restMouse();
  }

  /** An inline action button of a tree row (shown on hover), by its title. */
  async inlineAction(row: Locator, title: string | RegExp): Promise<void> {
    await row.hover();
    await row.getByRole('button', { name: title }).click();
    await this.restMouse();
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
      await modal
        .getByRole('button', { name: /^Close/ })
        .first()
        .click();
      await modal.waitFor({ state: 'hidden' });
    } else {
      await tab.hover();
      await tab.getByRole('button', { name: /^Close/ }).click();
      await tab.waitFor({ state: 'detached' });
    }
    await this.restMouse();
  }

  /** Drags the side bar's edge (the sash beside it) so the side bar is `width` pixels wide; returns the width it had. */
  async resizeSideBar(width: number): Promise<number> {
    const box = await this.page.locator('.part.sidebar').boundingBox();
    if (!box) throw new Error('the side bar is not shown');
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, y, { steps: 5 });
    await this.page.mouse.up();
    await this.restMouse();
    return box.width;
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

  /**
   * Replaces the whole value of the open quick input with `text`, as a person does it: waits for the caret in the box
   * (a box that is still being filled in moves the caret and the selection), selects all of it and sees it selected,
   * inserts the text, and reads it back. Enter is the caller's.
   */
  async replaceQuickInputValue(text: string): Promise<void> {
    const box = this.quickInputBox;
    await eventually('the caret in the quick input', async () => (await box.evaluate((el) => el === document.activeElement)) || undefined);
    await this.page.keyboard.press('Control+A');
    await eventually(
      'the whole value of the quick input to be selected',
      async () =>
        (await box.evaluate((el: HTMLInputElement) => el.selectionStart === 0 && el.selectionEnd === el.value.length)) || undefined,
    );
    await this.page.keyboard.insertText(text);
    let seen = '';
    await eventually(
      () => `the quick input to read ${JSON.stringify(text)} (it reads ${JSON.stringify(seen)})`,
      async () => ((seen = await box.inputValue()) === text ? true : undefined),
    );
  }

  /** An item of the open quick pick, by the start of its accessible label. */
  quickPickItem(label: string | RegExp): Locator {
    return this.quickInput.getByRole('option', { name: label });
  }

  /**
   * F1, enters the command's title and runs that exact entry. The title goes in as one insertion (as a paste
   * would): typed key by key, the palette re-filters on every key and a title takes seconds. The person presses Enter
   * once the entry is the highlighted one (a click on it while the list was still re-rendering was lost: the palette
   * stayed open), and sees the palette take it (it closes, or the command's own input replaces it).
   */
  async runCommand(title: string): Promise<void> {
    await this.page.keyboard.press('F1');
    await this.quickInputBox.waitFor();
    await this.page.keyboard.insertText(title);
    const typed = await this.quickInputBox.inputValue();
    const highlighted = this.quickInput.locator('.monaco-list-row.focused');
    // The entry itself, not one whose title only starts the same ("… (JSON)", "File: Compare New Untitled Text Files"
    // ranks above "File: New Untitled Text File"): the person moves down to it.
    // The palette's label is the title (with the "…" some titles end in), then ", " and what else it shows.
    const exact = (label: string | null): boolean => label?.split(', ')[0]?.replace(/(\.\.\.|…)$/, '') === title.replace(/(\.\.\.|…)$/, '');
    let labels: (string | null)[] = [];
    await eventually(
      () => `the palette to highlight ${JSON.stringify(title)} (it lists ${JSON.stringify(labels)})`,
      async () => {
        if (exact(await highlighted.getAttribute('aria-label', { timeout: 1_000 }).catch(() => null))) return true;
        labels = await this.quickInput.locator('.monaco-list-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label')));
        if (labels.some(exact)) await this.page.keyboard.press('ArrowDown');
        return undefined;
      },
    );
    await this.page.keyboard.press('Enter');
    await eventually(`the palette to run ${JSON.stringify(title)}`, async () =>
      !(await this.quickInput.isVisible()) || (await this.quickInputBox.inputValue()) !== typed ? true : undefined,
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

  /** Clears every notification (palette: "Notifications: Clear All Notifications"), so the next step's stand alone. */
  async clearNotifications(): Promise<void> {
    if ((await this.page.locator('.notification-toast').count()) === 0) return;
    await this.runCommand('Notifications: Clear All Notifications');
    await this.page.locator('.notification-toast').first().waitFor({ state: 'detached' });
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
 * Polls `probe` until it returns a value that is not undefined; fails with `what` (a function: read at the failure,
 * so it can name the last value seen).
 */
export async function eventually<T>(
  what: string | (() => string),
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${typeof what === 'string' ? what : what()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
