// Step 15: the @hosted participant in VS Code's own Chat view (issue 21, part 4), on the newest host (1.139), where
// the Chat view opens without a sign-in. Without Copilot, 1.139 offers only Agent mode, whose model picker hides models
// without tool calling (ours), and a participant runs only with a model picked: VS Code answered "Language model
// unavailable" before @hosted saw the request. The run's user settings turn Agent mode off (`chat.agent.enabled`,
// what the README tells a person without Copilot), so Chat is in Ask mode with our model picked. A prompt that does not
// mention the participant would go to the built-in Copilot agent and open a modal sign-in: the step opens Chat as the
// demo and every other place in the extension does, with *Ask in Chat*, whose input already holds `@hosted `, and types
// a plain question after it, as a newcomer would.
import * as assert from 'node:assert/strict';
import type { Locator } from 'playwright-core';
import type { Emulator } from '../service/emulator';
import type { Step } from './stepRunner';
import { actUntil, escapeRegExp, eventually, type Workbench } from './workbench';

export interface ChatEnvironment {
  readonly workbench: Workbench;
  readonly emu: Emulator;
}

/** The emulator's answer for this step: known text, so the step reads it in the Chat view. */
export const CHAT_ANSWER = 'A reasoning model thinks before it answers: it weighs the question, then writes a short answer.';
const QUESTION = 'What does a reasoning model do?';
const INFERENCE_PATH = '/cr/provider_predict_platform_base_oss';

export function chatSteps({ workbench: wb, emu }: ChatEnvironment): Step[] {
  const page = wb.page;

  const participant: Step = {
    number: 15,
    id: 'chat-participant',
    title:
      'opens the Chat view with Ask in Chat (the input holds @hosted), types a plain question: the streamed answer shows there, its reasoning folded to a line that opens it',
    needs: ['api-key'],
    async run({ shot, note }) {
      // The service reasons first (its own event, long enough to be seen), then answers with the known text.
      emu.configure({ responseText: CHAT_ANSWER, reasoning: 'event', thinkMs: 1_500 });
      const asked = emu.received.length;
      const openChat = () => wb.runCommand('Hosted Reasoning: Ask in Chat');
      await openChat();
      const chat = page.locator('.interactive-session').first();
      const input = chat.locator('.interactive-input-part .monaco-editor').first();
      await input.waitFor();
      // The mention is there before anything is typed: a plain question after it reaches @hosted, not Copilot.
      await eventually('the Chat input to hold “@hosted ”', async () =>
        (await input.innerText()).replace(/\s+/g, ' ').trim() === '@hosted' ? true : undefined,
      );
      // Ask mode, one of our models picked: what makes a participant's request possible without Copilot.
      await chat.locator('.chat-mode-picker-item').getByText('Ask', { exact: true }).waitFor();
      // The picked model is one of the Models view's rows (the story's tuned models by now, or a base model).
      // Both are read again on every try: the view may still be drawing its rows, the picker still filling.
      let rows: string[] = [];
      const picked = await eventually(
        () => `one of our models (${rows.join(', ')}) picked in the Chat view`,
        async () => {
          rows = await page.locator('.part.sidebar .monaco-list-row .label-name').allInnerTexts();
          const shown = (await chat.locator('.model-picker-item').innerText()).trim().replace(/…$/, '');
          return shown && rows.some((row) => row.startsWith(shown)) ? shown : undefined;
        },
      );
      note(`the Chat view's model picker shows ${picked}`);
      await askHosted(wb, chat, QUESTION, () => shot('typed'), openChat);
      const response = chat.locator('.interactive-response').last();
      await response.getByText(new RegExp(escapeRegExp(CHAT_ANSWER))).waitFor({ timeout: 30_000 });
      // The reasoning is one line, before the answer, with a link that opens it; its text is not in the response.
      const folded = response.locator('.rendered-markdown', { hasText: /Thought for \d+ s · [\d,]+ characters/ });
      await folded.waitFor();
      assert.equal(await response.getByText('The question is about').count(), 0, 'the reasoning itself is not in the response');
      const [foldedAt, answerAt] = await response.evaluate((el, answer) => {
        const text = el.textContent ?? '';
        return [text.search(/Thought for \d+ s/), text.indexOf(answer)] as const;
      }, CHAT_ANSWER);
      assert.ok(foldedAt >= 0 && foldedAt < answerAt, `the folded reasoning comes before the answer (${foldedAt}, ${answerAt})`);
      // No sign-in dialog: the prompt went to the participant.
      assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal dialog (the Copilot sign-in) opened');
      let served = 0;
      await eventually('the service to have answered the participant', async () => {
        served = emu.received.slice(asked).filter((r) => r.path.startsWith(INFERENCE_PATH) && r.status === 200).length;
        return served > 0 ? true : undefined;
      });
      note(`answered through ${served} streamed inference call(s)`);
      await shot('answered');

      // "Show reasoning" opens the reasoning, as plain text, in a read-only editor.
      const tab = page.locator('.part.editor .tab.active', { hasText: /^Reasoning \S+ [0-9a-f]{4}\.txt/ });
      await actUntil(
        'the reasoning to open in an editor',
        () => folded.getByRole('link', { name: 'Show reasoning' }).click({ timeout: 5_000 }),
        () => tab.isVisible(),
        { retryAfterMs: 10_000 },
      );
      const editor = page.locator('.part.editor .editor-instance .view-lines');
      let shown = '';
      await eventually(
        () => `the editor to hold the model's name and its reasoning (it reads ${JSON.stringify(shown.slice(0, 200))})`,
        async () => {
          shown = (await editor.innerText({ timeout: 1_000 }).catch(() => '')).replace(/\s+/g, ' ');
          return /Reasoning of \S+ \(as the service sent it\)/.test(shown) && shown.includes('The question is about') ? true : undefined;
        },
      );
      await shot('reasoning');
    },
  };

  return [participant];
}

/**
 * Types `@hosted <question>` into the Chat view's input and sends it; `typed` runs once the input holds the prompt.
 * Escape closes a suggestion list the mention opened (it may open late), so Enter sends rather than accepts one: Enter
 * waits until the input holds the whole prompt and no list is open. Keys typed before the input had the caret are lost:
 * the prompt is typed again, from an empty input, until the input holds it. With `openChat` (Ask in Chat, which leaves
 * `@hosted ` in the input), only the question is typed, after the mention; an input that holds anything else is opened
 * again that way rather than cleared.
 */
export async function askHosted(
  wb: Workbench,
  chat: Locator,
  question: string,
  typed: () => Promise<unknown> = async () => undefined,
  openChat?: () => Promise<void>,
): Promise<void> {
  const page = wb.page;
  const input = chat.locator('.interactive-input-part .monaco-editor').first();
  const suggest = page.locator('.suggest-widget.visible');
  const holdsPrompt = async (): Promise<boolean> => (await input.innerText()).replace(/\s+/g, ' ').includes(`@hosted ${question}`);
  // Keys go where the caret is: the input is clicked until it has it (a click while the view was still drawn left
  // the caret elsewhere, and Control+A, Delete there act on whatever holds it).
  const focused = chat.locator('.interactive-input-part .monaco-editor.focused');
  await actUntil(
    'the prompt typed, with no suggestion list open',
    async () => {
      if (await suggest.isVisible()) {
        await page.keyboard.press('Escape');
        return;
      }
      if (await holdsPrompt()) return;
      await actUntil(
        'the caret in the Chat input',
        () => input.click({ timeout: 5_000 }),
        () => focused.isVisible(),
        { retryAfterMs: 2_000 },
      );
      if (openChat) {
        if ((await input.innerText()).replace(/\s+/g, ' ').trim() !== '@hosted') {
          await openChat();
          return;
        }
        await page.keyboard.press('Control+End');
        await page.keyboard.type(question);
        return;
      }
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      // The mention first: the participant, not the built-in agent, gets the prompt.
      await page.keyboard.type('@hosted ');
      await page.keyboard.type(question);
    },
    async () => !(await suggest.isVisible()) && (await holdsPrompt()),
    { retryAfterMs: 3_000 },
  );
  await typed();
  // Enter again only while the input still holds the prompt: once sent, the input is emptied.
  const request = chat.locator('.interactive-request').filter({ hasText: question }).first();
  await actUntil(
    'the request to show in the Chat view',
    async () => {
      if (await holdsPrompt()) await page.keyboard.press('Enter');
    },
    () => request.isVisible(),
    { retryAfterMs: 10_000 },
  );
}
