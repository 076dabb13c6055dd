// Step 20: our language-model tools in VS Code's Chat (issue 28), on the newest host (1.139), without Copilot. In Ask
// mode (the run's settings are the demo's: test/e2e/run.ts), `@hosted #hostedModels` runs the models tool through
// vscode.lm.invokeTool and shows its result; then, in Agent mode, Configure Tools lists each of our tools by its
// reference name and description. What this cannot drive: an agent choosing and calling the tools itself needs a
// model that calls tools (Copilot's, signed in); ours cannot, so Agent mode here has no model. The tools' own calls are
// tested in the editor (test/suite/chat.test.ts and the tools' suite), a `#` reference in the participant's request
// here.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator } from 'playwright-core';
import { repoRoot } from '../runners/vscodeServerLayout';
import type { Step } from './stepRunner';
import { actUntil, eventually, type Workbench } from './workbench';

/** Each contributed tool's `#` name and the description a person reads, from package.json and package.nls.json. */
function contributedTools(): { reference: string; description: string }[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { languageModelTools: { toolReferenceName: string; userDescription: string }[] };
  };
  const nls = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
  return manifest.contributes.languageModelTools.map((t) => ({
    reference: t.toolReferenceName,
    description: nls[t.userDescription.replace(/^%|%$/g, '')] ?? t.userDescription,
  }));
}

export function toolSteps(wb: Workbench, userSettingsFile: string): Step[] {
  const page = wb.page;

  const tools: Step = {
    number: 20,
    id: 'chat-tools',
    title: '@hosted #hostedModels shows the models tool’s result in Ask mode; Configure Tools in Agent mode lists our tools',
    needs: ['api-key'],
    timeoutMs: 120_000,
    async run({ shot, note }) {
      await wb.runCommand('Chat: Open Chat');
      const chat = page.locator('.interactive-session').first();
      await chat.locator('.interactive-input-part .monaco-editor').first().waitFor();
      const mode = chat.locator('.chat-mode-picker-item').first();
      await mode.getByText('Ask', { exact: true }).waitFor();
      // One of our models picked, one of the Models view's rows (a base model, or a model an earlier step made):
      // else VS Code itself answers. Both read again on every try: the view may still draw, the picker still fill.
      const picked = await eventually('one of our models picked in the Chat view', async () => {
        const rows = await page.locator('.part.sidebar .monaco-list-row .label-name').allInnerTexts();
        const shown = (await chat.locator('.model-picker-item').innerText()).trim().replace(/…$/, '');
        return shown && rows.some((row) => row.startsWith(shown)) ? shown : undefined;
      });
      note(`Ask mode, ${picked} picked`);

      // Agent mode on, in the Settings editor (the run's settings, like the demo's, have it off): with it off, 1.139
      // sent `#hostedModels` as text, not as a tool reference. The chat stays in Ask mode with our model; Agent mode is
      // then offered in the mode picker, where Configure Tools lists the tools. The runner's reset puts the settings back.
      // Its row by its title (Chat › Agent: Enabled): before the search applies, the editor shows other settings.
      const checkbox = page
        .locator('.settings-editor .setting-item-bool')
        .filter({ hasText: /Agent:\s*Enabled/ })
        .first()
        .locator('.setting-value-checkbox');
      await wb.searchSettings('chat.agent.enabled', () => checkbox.isVisible());
      const agentOn = (): boolean =>
        (JSON.parse(fs.readFileSync(userSettingsFile, 'utf8')) as Record<string, unknown>)['chat.agent.enabled'] !== false;
      await actUntil(
        'chat.agent.enabled turned on, written to settings.json',
        async () => {
          if ((await checkbox.getAttribute('aria-checked')) !== 'true') await checkbox.click({ timeout: 5_000 });
        },
        async () => agentOn(),
      );
      await wb.closeEditor('Settings');
      // The workbench keeps more than one action widget in the page: the one shown.
      const modeMenu = page.locator('.action-widget:visible').first();
      {
        await actUntil(
          'Agent mode offered in the mode picker',
          // An open menu keeps the modes it opened with: closed and opened again until it offers Agent.
          async () => {
            if (await modeMenu.isVisible()) await page.keyboard.press('Escape');
            else await mode.click({ timeout: 5_000 });
          },
          async () => (await modeMenu.isVisible()) && (await modeMenu.getByText('Agent', { exact: true }).count()) > 0,
          { retryAfterMs: 2_000 },
        );
        await actUntil(
          'the mode picker closed, Ask mode kept',
          () => page.keyboard.press('Escape'),
          async () => !(await modeMenu.isVisible()) && (await mode.innerText()).trim() === 'Ask',
        );

        await referenceTool(chat, 'hostedModels');
        const response = chat.locator('.interactive-response').last();
        const summary = response.getByText(/\d+ models?: \d+ base, \d+ tuned\./);
        await summary.waitFor({ timeout: 30_000 });
        await response.getByText(/oss-reasoner-8b: base/).waitFor();
        assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal dialog (the Copilot sign-in) opened');
        note(`the response: ${(await summary.innerText()).trim()}`);
        await shot('reference');

        await actUntil(
          'Agent mode picked',
          async () => {
            if (!(await modeMenu.isVisible())) await mode.click({ timeout: 5_000 });
            await modeMenu.getByText('Agent', { exact: true }).first().click({ timeout: 5_000 });
          },
          async () => (await mode.innerText()).trim() === 'Agent',
        );
        await configureTools(note, shot);
      }
    },
  };

  async function configureTools(note: (line: string) => void, shot: (detail: string) => Promise<string>): Promise<void> {
    const chat = page.locator('.interactive-session').first();
    const picker = page.locator('.quick-input-widget');
    await actUntil(
      'the Configure Tools picker open',
      () => chat.locator('.interactive-input-part .action-label[aria-label^="Configure Tools"]').first().click({ timeout: 5_000 }),
      async () => (await picker.isVisible()) && (await picker.getByText('Configure Tools').first().isVisible()),
    );
    const ours = picker.locator('.monaco-list-row', { hasText: 'Hosted Reasoning & Finetuning' }).first();
    const expected = contributedTools();
    const first = expected[0];
    assert.ok(first, 'package.json contributes tools');
    // Our group starts collapsed: opened through its twistie until its first tool shows.
    await actUntil(
      'our tools shown under Hosted Reasoning & Finetuning',
      () => ours.locator('.monaco-tl-twistie').first().click({ timeout: 5_000 }),
      () => picker.locator('.monaco-list-row', { hasText: first.reference }).first().isVisible(),
    );
    for (const tool of expected) {
      const row = picker.locator('.monaco-list-row', { hasText: tool.reference });
      await eventually(`the row of #${tool.reference} with its description`, async () =>
        (await row.count()) > 0 && (await row.first().innerText()).includes(tool.description) ? true : undefined,
      );
    }
    note(`Configure Tools lists ${expected.length} tools: ${expected.map((t) => t.reference).join(', ')}`);
    await shot('picker');
    await actUntil(
      'the picker closed',
      () => page.keyboard.press('Escape'),
      async () => !(await picker.isVisible()),
    );
  }
  return [tools];
}

/**
 * Sends `@hosted #<reference>`: the reference is accepted from its completion (Tab), so the request carries it as a
 * tool reference, not as text; typed again from an empty input until the input holds it with no list open.
 */
async function referenceTool(chat: Locator, reference: string): Promise<void> {
  const page = chat.page();
  const input = chat.locator('.interactive-input-part .monaco-editor').first();
  const suggest = page.locator('.suggest-widget.visible');
  const holds = async () => (await input.innerText()).replace(/\s+/g, ' ').includes(`@hosted #${reference}`);
  await actUntil(
    `the prompt @hosted #${reference} typed, its completion accepted`,
    async () => {
      await input.click({ timeout: 5_000 });
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await page.keyboard.type('@hosted ');
      if (await suggest.isVisible()) await page.keyboard.press('Escape');
      await page.keyboard.type(`#${reference}`);
      await suggest.getByText(reference, { exact: false }).first().waitFor({ timeout: 5_000 });
      await page.keyboard.press('Tab');
    },
    async () => !(await suggest.isVisible()) && (await holds()),
    { retryAfterMs: 3_000 },
  );
  const request = chat
    .locator('.interactive-request')
    .filter({ hasText: `#${reference}` })
    .last();
  const before = await request.count();
  await actUntil(
    'the request to show in the Chat view',
    async () => {
      if (await holds()) await page.keyboard.press('Enter');
    },
    async () => (await request.count()) > before,
    { retryAfterMs: 10_000 },
  );
}
