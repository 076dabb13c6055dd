// The state every UI step starts from, and the reset that restores it after each step, passed or failed: a step that
// fails mid-way leaves its dialog, editor, notification or setting behind, and the next step must not stumble on it.
// The reset undoes, in order: open quick inputs, dialogs and menus (Escape until none is open); editors (all closed,
// unsaved ones discarded); the user settings (the file written back and the window opened afresh, which reads it);
// the emulator's options, keys and faults; the window size, the side bar's width and the secondary side bar hidden; then
// what the story itself expects (`settle`: no job still running, the run's service shown); last, notifications.
// Every wait is on a state of the page; each part says what it could not undo.
import * as fs from 'node:fs';
import type { Locator } from 'playwright-core';
import type { Emulator, EmulatorOptions } from '../service/emulator';
import { actUntil, type Workbench } from './workbench';

export interface ResetOptions {
  readonly workbench: Workbench;
  readonly userSettingsFile: string;
  readonly emu: Emulator;
  /** Opens the window afresh (the page loaded again, ready, the story reconnected); it reads the settings again. */
  readonly reopen: () => Promise<void>;
  /** The story's own known state, checked (or waited for) after the generic parts. */
  readonly settle?: () => Promise<void>;
}

/** At most this many Escapes: more means something reopens itself, which the reset reports. */
const MAX_ESCAPES = 8;
/** Close All Editor Groups is run again after this long with tabs left and no dialog asking. */
const CLOSE_ALL_AGAIN_MS = 5_000;
/** Emulator options a step may change; the others (ports, keys, data folder) are the run's. */
type StepOptions = Omit<EmulatorOptions, 'host' | 'port' | 'storagePort' | 'dataDir' | 'keys' | 'datasets'>;

/** Captures the known state (call once the workbench is ready); `reset()` returns to it and says what it undid. */
export class WorkbenchReset {
  private readonly settingsText: string;
  private readonly emulatorOptions: StepOptions;
  /** The keys as the run started them (a step may give one another model list shape). */
  private readonly emulatorKeys: string;
  private readonly viewport: { width: number; height: number } | null;
  private sideBarWidth: number | undefined;

  constructor(private readonly options: ResetOptions) {
    this.settingsText = fs.readFileSync(options.userSettingsFile, 'utf8');
    const { host: _h, port: _p, storagePort: _s, dataDir: _d, keys: _k, datasets: _ds, ...rest } = options.emu.options;
    this.emulatorOptions = { ...rest };
    this.emulatorKeys = JSON.stringify(options.emu.options.keys);
    this.viewport = options.workbench.page.viewportSize();
  }

  private get page() {
    return this.options.workbench.page;
  }

  /** Records the side bar's width once it is shown (the first step shows it). */
  private async sideBarBox(): Promise<{ width: number } | null> {
    const sideBar = this.page.locator('.part.sidebar');
    return (await sideBar.isVisible()) ? sideBar.boundingBox() : null;
  }

  /** Returns to the known state; resolves to what had to be undone (empty when nothing was left behind). */
  async reset(): Promise<string[]> {
    const undone: string[] = [];
    await this.closeOverlays(undone);
    await this.closeEditors(undone);
    await this.restoreSettings(undone);
    this.restoreEmulator(undone);
    await this.restoreLayout(undone);
    await this.options.settle?.();
    await this.clearNotifications(undone);
    // A notification's action or the settle step may have opened something again.
    await this.closeOverlays(undone);
    return undone;
  }

  /** The quick input (palette, input box, save dialog), modal dialogs and context menus: Escape until none shows. */
  private async closeOverlays(undone: string[]): Promise<void> {
    const overlays: [string, Locator, Locator?][] = [
      ['a dialog', this.page.locator('.monaco-dialog-box')],
      ['a context menu', this.page.locator('.context-view .monaco-menu')],
      // A dropdown of the Chat view (its model picker).
      ['a dropdown', this.page.locator('.context-view > .action-widget')],
      // Escape goes to the focused element; focus may have moved into a webview, so it goes to the box first.
      ['a quick input', this.options.workbench.quickInput, this.options.workbench.quickInputBox],
    ];
    for (let escapes = 0; ; escapes++) {
      let open: (typeof overlays)[number] | undefined;
      for (const overlay of overlays) if (await overlay[1].isVisible()) open ??= overlay;
      if (!open) return;
      if (escapes === MAX_ESCAPES) throw new Error(`reset: ${open[0]} is still open after ${MAX_ESCAPES} Escapes`);
      const [what, locator, focusTarget] = open;
      undone.push(`closed ${what} (${(await locator.innerText().catch(() => '')).split('\n')[0]?.slice(0, 80)})`);
      if (focusTarget && (await focusTarget.isVisible())) await focusTarget.focus();
      await this.page.keyboard.press('Escape');
      await locator.waitFor({ state: 'hidden', timeout: 5_000 }).catch(() => undefined);
    }
  }

  /**
   * Every editor and editor group closed, and the modal editor (the Settings editor of VS Code 1.10x+); an unsaved
   * editor (an untitled file) is discarded ("Don't Save").
   */
  private async closeEditors(undone: string[]): Promise<void> {
    const wb = this.options.workbench;
    if (await wb.modalEditor.isVisible()) {
      const title = (
        await wb.modalEditor
          .locator('.modal-editor-title')
          .innerText()
          .catch(() => '')
      ).trim();
      undone.push(`closed the modal editor ${JSON.stringify(title)}`);
      await actUntil(
        'the modal editor to close',
        () =>
          wb.modalEditor
            .getByRole('button', { name: /^Close/ })
            .first()
            .click({ timeout: 5_000 }),
        async () => !(await wb.modalEditor.isVisible()),
      );
    }
    const tabs = this.page.locator('.part.editor .tab');
    const count = await tabs.count();
    if (count === 0) return;
    undone.push(`closed ${count} editor${count === 1 ? '' : 's'}`);
    const dontSave = this.page.locator('.monaco-dialog-box').getByRole('button', { name: "Don't Save" });
    let left: string[] = [];
    // An unsaved editor's dialog is answered as soon as it shows; Close All is run again while tabs remain and no
    // dialog asks (an editor that opened meanwhile, a command the palette lost), though not within 5 s of the last:
    // F1 under a dialog still coming would open no palette.
    let closedAllAt = Date.now();
    await wb.runCommand('View: Close All Editor Groups');
    await actUntil(
      () => `every editor to close (still open: ${JSON.stringify(left)})`,
      async () => {
        if (await dontSave.isVisible()) await dontSave.click({ timeout: 5_000 });
        else if (Date.now() - closedAllAt > CLOSE_ALL_AGAIN_MS) {
          closedAllAt = Date.now();
          await wb.runCommand('View: Close All Editor Groups');
        }
      },
      async () => {
        left = (await tabs.allInnerTexts()).map((text) => text.trim());
        return left.length === 0;
      },
      { retryAfterMs: 1_000 },
    );
  }

  /**
   * The user settings as they were: the file written back, then the window opened afresh (`reopen`), which reads it.
   * The workbench does not notice the file rewritten behind its back (seen: the Settings editor still showed a
   * cleared download folder 15 s after the file was restored), and typing the old text into its settings.json editor
   * is re-indented and bracket-completed on the way in; a fresh window is simple and certain.
   */
  private async restoreSettings(undone: string[]): Promise<void> {
    const now = fs.readFileSync(this.options.userSettingsFile, 'utf8');
    if (now === this.settingsText) return;
    const before = parseOr(this.settingsText);
    const after = parseOr(now);
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const changed = keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
    undone.push(`restored the user settings (${changed.join(', ')}) and opened the window afresh`);
    fs.writeFileSync(this.options.userSettingsFile, this.settingsText);
    await this.options.reopen();
  }

  private restoreEmulator(undone: string[]): void {
    const emu = this.options.emu;
    const changed = (Object.keys(this.emulatorOptions) as (keyof StepOptions)[]).filter((k) => emu.options[k] !== this.emulatorOptions[k]);
    for (const optional of ['responseText', 'responseTextByModel', 'reasoningText'] as const) {
      if (optional in emu.options && !(optional in this.emulatorOptions)) changed.push(optional);
    }
    if (changed.length > 0) undone.push(`restored the emulator's ${changed.join(', ')}`);
    emu.configure({
      ...this.emulatorOptions,
      responseText: this.emulatorOptions.responseText,
      responseTextByModel: this.emulatorOptions.responseTextByModel,
      reasoningText: this.emulatorOptions.reasoningText,
    });
    if (JSON.stringify(emu.options.keys) !== this.emulatorKeys) {
      undone.push("restored the emulator's keys");
      emu.configure({ keys: JSON.parse(this.emulatorKeys) as EmulatorOptions['keys'] });
    }
    if (emu.faults.list().length > 0) undone.push("cleared the emulator's faults");
    emu.faults.clear();
  }

  /** The window's size, and the side bar's width (recorded the first time it shows). */
  private async restoreLayout(undone: string[]): Promise<void> {
    const size = this.page.viewportSize();
    if (this.viewport && (size?.width !== this.viewport.width || size.height !== this.viewport.height)) {
      undone.push(`restored the window size ${this.viewport.width}x${this.viewport.height}`);
      await this.page.setViewportSize(this.viewport);
    }
    // The secondary side bar (where VS Code 1.139 shows the Chat view) is hidden in the known state: open, it takes
    // the editor area's width from the steps that follow.
    const auxiliaryBar = this.page.locator('.part.auxiliarybar');
    if (await auxiliaryBar.isVisible()) {
      undone.push('hid the secondary side bar');
      // Hiding is no toggle: safe to run again if the palette lost it.
      await actUntil(
        'the secondary side bar to hide',
        () => this.options.workbench.runCommand('View: Hide Secondary Side Bar'),
        async () => !(await auxiliaryBar.isVisible()),
        { retryAfterMs: 3_000 },
      );
    }
    const box = await this.sideBarBox();
    if (!box) return;
    this.sideBarWidth ??= box.width;
    if (Math.abs(box.width - this.sideBarWidth) > 1) {
      undone.push(`restored the side bar's width ${Math.round(this.sideBarWidth)}`);
      await this.options.workbench.resizeSideBar(this.sideBarWidth);
    }
  }

  /** No toast and no open notification center. */
  private async clearNotifications(undone: string[]): Promise<void> {
    const wb = this.options.workbench;
    const count = await this.page.locator('.notification-toast').count();
    if (count > 0) {
      undone.push(`cleared ${count} notification${count === 1 ? '' : 's'}`);
      // Until none shows; its failure names those left (one still showing progress cannot be cleared).
      await wb.clearNotifications();
    }
    const center = this.page.locator('.notifications-center.visible');
    if (await center.isVisible()) {
      undone.push('hid the notification center');
      await actUntil(
        'the notification center to hide',
        () => wb.runCommand('Notifications: Hide Notifications'),
        async () => !(await center.isVisible()),
        { retryAfterMs: 3_000 },
      );
    }
  }
}

function parseOr(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    // written half-way or by hand: every key counts as changed
    return {};
  }
}
