// Steps 5, 6, 8 and 14: the playground webview. A streamed answer arrives token by token and stops when asked; a hostile
// answer (script, event handlers, a javascript: link, an iframe, svg onload) is shown as text, runs nothing, opens no
// dialog and makes no request; in a 1280x720 window the prompt, Run and the answer come first, every knob explains
// itself, and Ask About Selection asks a question about the selection; a model that thinks in silence shows
// "Thinking…" with a running clock, its reasoning in an open Thinking section, then folds it away for the answer.
import * as assert from 'node:assert/strict';
import type { Dialog, Locator, Request } from 'playwright-core';
import type { Emulator } from '../service/emulator';
import { composeReasoning, type InferenceRequest } from '../service/inference';
import { fromWebview, PlaygroundPage } from './playgroundPage';
import { RESTORE_NOTE } from './showcase';
import type { Step } from './stepRunner';
import { actUntil, escapeRegExp, eventually, type Workbench } from './workbench';

export interface PlaygroundEnvironment {
  readonly workbench: Workbench;
  readonly emu: Emulator;
  /** A base model of the key, opened from its row in the Models view. */
  readonly model: string;
}

/** The hostile answer, verbatim. */
export const HOSTILE_ANSWER =
  '<script>window.__pwned=1</script> <img src=x onerror="window.__pwned=2"> [x](javascript:window.__pwned=3) ' +
  '<iframe src="https://example.com"></iframe> <svg onload="window.__pwned=4"></svg>';

/** Slow enough that a person (and the sampling below) sees the answer grow. */
const SLOW_TOKEN_MS = 150;
/**
 * Step 5's answer: long enough (about 800 tokens, two minutes at SLOW_TOKEN_MS) that it is still streaming when Stop is
 * clicked however loaded the machine. The emulator's usual answer (about 60 tokens, 8 s) once ended first at a load of
 * 20, Stop already disabled. A stream that went on after Stop would still show more text.
 */
const LONG_ANSWER = Array.from(
  { length: 24 },
  (_, i) =>
    `Part ${i + 1}. Open the notebook's trash from the sidebar, find the note by its title or the date it was deleted, ` +
    'and choose Restore: it goes back to the notebook it came from, with its attachments and its history. ',
).join('');
/** Distinct sizes of the output to see before stopping: the answer grew in that many steps. */
const GROWTH_STEPS = 4;
/** After Stop: longer than several token intervals, so a stream that went on would have shown more text. */
const AFTER_STOP_SETTLE_MS = 6 * SLOW_TOKEN_MS;
/** After the hostile answer is shown: an image error or load handler would have fired by then. */
const HOSTILE_SETTLE_MS = 500;

const INFERENCE_PATH = '/cr/provider_predict_platform_base_oss';
/** The "first ten minutes" window. */
const SMALL_WINDOW = { width: 1280, height: 720 };
/** "The start of the answer": its first lines, about this tall. */
const ANSWER_START_PX = 48;
/** Every knob, by test id: each has a title and a visible description it names in aria-describedby. */
const KNOBS = [
  'model-select',
  'temperature',
  'sequential-budget',
  'parallel-budget',
  'use-rag',
  'stream',
  'custom-query',
  'query-only',
  'compare',
];
/** Step 14: the model's silence before its first byte (a reasoning model behind a gateway), and its pace after. */
const THINK_MS = 3_000;
/** Slow enough that the reasoning is seen streaming into its section (about 40 tokens: 1.6 s). */
const THINKING_TOKEN_MS = 40;
/** What the playground sends with its form untouched (the reasoning the emulator writes depends on the budgets). */
const DEFAULT_RUN: Omit<InferenceRequest, 'modelName' | 'prompt'> = {
  stream: true,
  useRag: false,
  sequentialBudget: 8,
  parallelBudget: 1,
  temperature: 0.7,
};
const SELECTED_CODE = 'function twice(x: number) { return 2 * x; }';
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The requests a webview may make: the workbench's own origin and the extension's files through vscode-resource. */
function allowedUrl(url: string, workbenchOrigin: string): boolean {
  return url.startsWith(`${workbenchOrigin}/`) || /^https:\/\/[^/]+\.vscode-resource\.vscode-cdn\.net\//.test(url);
}

export function playgroundSteps(env: PlaygroundEnvironment): Step[] {
  const { workbench: wb, emu, model } = env;
  const page = wb.page;
  const pg = new PlaygroundPage(page);

  /**
   * The model row's inline Open Playground, and the page's model choice (the page asks the extension for the model
   * list after it loads: the choice arrives a moment later). The row's label may end with an accuracy (the report's
   * base evaluation adds one).
   */
  const openPlayground = async (): Promise<void> => {
    await wb.showContainer('Hosted Reasoning');
    // Each click opens a new panel: clicked again only when none showed in a generous while (a click on a row the
    // tree was re-rendering was lost).
    await wb.inlineAction(wb.row('Models', new RegExp(`^Base model ${escapeRegExp(model)}(,|$)`)), 'Open Playground', {
      what: `a playground to open from ${model}'s row`,
      holds: () => pg.prompt.isVisible(),
      retryAfterMs: 15_000,
    });
    let chosen = '';
    await eventually(
      () => `the playground to choose ${model} (it shows ${JSON.stringify(chosen)})`,
      async () => {
        chosen = await pg.modelSelect.inputValue();
        return chosen === model ? chosen : undefined;
      },
    );
  };

  const streaming: Step = {
    number: 5,
    id: 'playground-stream',
    title: 'open the playground from a model, run a prompt, watch the tokens arrive, stop it midway',
    needs: ['api-key'],
    async run({ shot, note }) {
      await openPlayground();

      const tokenIntervalMs = emu.options.tokenIntervalMs;
      emu.configure({ tokenIntervalMs: SLOW_TOKEN_MS, responseText: LONG_ANSWER });
      try {
        const asked = emu.received.length;
        await pg.ask('How do I restore a deleted note?');

        // Sample what the person sees: the answer must grow in several visible steps, not appear at once, each seen
        // while the status says it is streaming and the first-token time shows (read together with the answer).
        const sizes: number[] = [];
        let last = '';
        await eventually(
          () => `the answer to grow in ${GROWTH_STEPS} steps while streaming (sizes seen: ${sizes.join(', ')}; last seen: ${last})`,
          async () => {
            const seen = await pg.shown(['output', 'status', 'ttft']);
            const size = seen.output.text.length;
            last = JSON.stringify({ status: seen.status.text, ttft: seen.ttft.text, size });
            const streaming = seen.status.text === 'Streaming…' && /^first token \S+/.test(seen.ttft.text);
            if (streaming && size > 0 && size !== sizes[sizes.length - 1]) sizes.push(size);
            return sizes.length >= GROWTH_STEPS ? true : undefined;
          },
          20_000,
          40,
        );
        note(`output sizes while streaming: ${sizes.join(' → ')} characters`);
        assert.ok(sizes.length > 1 && sizes[sizes.length - 1]! > sizes[0]!, 'the answer grew');
        await shot('streaming');

        await actUntil(
          'the status to read "Stopped."',
          () => pg.stop.click({ timeout: 5_000 }),
          async () => (await pg.status.innerText()).includes('Stopped.'),
          { retryAfterMs: 2_000 },
        );
        // The text renders a frame after the status: what was shown at the stop is read once that frame is drawn.
        await pg.rendered();
        const stoppedAt = await pg.output.innerText();
        await sleep(AFTER_STOP_SETTLE_MS);
        assert.equal(await pg.output.innerText(), stoppedAt, 'no text arrives after Stop');
        const request = await eventually(
          'the emulator to record the stopped request',
          async () => {
            const found = emu.received.slice(asked).find((r) => r.path.startsWith(INFERENCE_PATH));
            return found?.aborted ? found : undefined;
          },
          10_000,
        );
        note(`stopped at ${stoppedAt.length} characters; the service saw the request aborted (status ${request.status})`);
      } finally {
        emu.configure({ tokenIntervalMs, responseText: undefined });
      }
    },
  };

  const hostile: Step = {
    number: 6,
    id: 'playground-hostile',
    title: 'a hostile answer (script, onerror, javascript: link, iframe, svg onload) is shown as text and runs nothing',
    needs: ['api-key'],
    async run({ note }) {
      await openPlayground();
      const workbenchOrigin = new URL(page.url()).origin;
      const { host, content } = await pg.frames();
      /** Adds an image pointing at `url` to the page and removes it: true when the policy refused to load it. */
      const blockedByPolicy = async (url: string): Promise<boolean> => {
        const failed = page.context().waitForEvent('requestfailed', { predicate: (r) => r.url() === url, timeout: 5_000 });
        await content.evaluate((src) => {
          const img = document.createElement('img');
          img.src = src;
          document.body.append(img);
          img.remove();
        }, url);
        return (await failed).failure()?.errorText === 'csp';
      };
      // Anything the page's policy blocks is reported here: nothing should even be attempted.
      await content.evaluate(() => {
        const w = window as unknown as { __violations: string[] };
        w.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      const policy = await content.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      assert.ok(policy?.includes("default-src 'none'"), `the page's policy denies by default: ${policy}`);
      assert.ok(!/unsafe-inline|unsafe-eval/.test(policy ?? ''), `the policy allows no inline script: ${policy}`);

      const dialogs: string[] = [];
      const onDialog = (dialog: Dialog): void => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss().catch(() => undefined);
      };
      // Our page's files are loaded; from now on nothing may even be attempted from the webview. (Playwright reports
      // a request the policy blocks too, then fails it with "csp".)
      const requests = new Map<Request, string>();
      const onRequest = (request: Request): void => {
        if (fromWebview(request) || !allowedUrl(request.url(), workbenchOrigin)) {
          requests.set(request, `${request.method()} ${request.url()}`);
        }
      };
      const onRequestFailed = (request: Request): void => {
        const seen = requests.get(request);
        if (seen !== undefined) requests.set(request, `${seen} (failed: ${request.failure()?.errorText ?? 'unknown'})`);
      };
      const asked = emu.received.length;
      emu.configure({ responseText: HOSTILE_ANSWER });
      page.on('dialog', onDialog);
      page.context().on('request', onRequest);
      page.context().on('requestfailed', onRequestFailed);
      try {
        await pg.ask('Show me some markup');
        await pg.content.locator('[data-testid="status"]', { hasText: 'Done.' }).waitFor();
        await pg.rendered();
        await sleep(HOSTILE_SETTLE_MS);
      } finally {
        page.off('dialog', onDialog);
        page.context().off('request', onRequest);
        page.context().off('requestfailed', onRequestFailed);
        emu.configure({ responseText: undefined });
      }
      assert.ok(
        emu.received.slice(asked).some((r) => r.path.startsWith(INFERENCE_PATH) && r.status === 200),
        'the service sent the hostile answer',
      );

      assert.equal((await pg.output.innerText()).trim(), HOSTILE_ANSWER, 'the answer is shown as text, character for character');
      const elements = await pg.output.evaluate((output) => ({
        active: [...output.querySelectorAll('script, img, iframe, svg, object, embed, [onerror], [onload], [onclick]')].map(
          (e) => e.outerHTML,
        ),
        links: [...output.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
      }));
      assert.deepEqual(elements.active, [], 'no element of the answer became markup');
      const unsafeLinks = elements.links.filter((href) => !/^https?:\/\//i.test(href));
      assert.deepEqual(unsafeLinks, [], 'no link other than http(s)');

      for (const [name, frame] of [
        ['the workbench', page.mainFrame()],
        ['the webview host', host],
        ['the playground', content],
      ] as const) {
        const pwned = await frame.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
        assert.equal(pwned, undefined, `window.__pwned in ${name}`);
      }
      assert.deepEqual(dialogs, [], 'no dialog opened');
      assert.deepEqual([...requests.values()], [], 'no request left the webview (none was even attempted)');
      const violations = await content.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
      assert.deepEqual(violations, [], 'nothing tried what the policy forbids');
      // Defence in depth: had something slipped through, the page's policy would still have stopped its request.
      const blocked = await blockedByPolicy('https://example.com/probe.png');
      assert.ok(blocked, 'the policy blocks an image from another origin');

      note(
        `shown as text; links: ${elements.links.join(', ') || 'none'}; no dialog, no request, no policy violation; the policy blocks a probe image`,
      );
    },
  };

  const answerFirst: Step = {
    number: 8,
    id: 'playground-layout',
    title: 'at 1280x720 the prompt, Run and the answer show without scrolling; every knob explains itself; Ask About Selection',
    needs: ['api-key'],
    // It took 56 s of the default 60 at a load of 20, its checks all done at 60 (a bound for a hang, not a measure).
    timeoutMs: 120_000,
    async run({ shot, note }) {
      const before = page.viewportSize();
      await page.setViewportSize(SMALL_WINDOW);
      try {
        await openPlayground();
        // A question from the demo's documents with an answer and reasoning a person would expect (README's picture).
        emu.configure(RESTORE_NOTE.options);
        await pg.ask(RESTORE_NOTE.prompt);
        await pg.content.locator('[data-testid="status"]', { hasText: 'Done.' }).waitFor();
        // The answer and the Thinking section render a frame after the status.
        await pg.rendered();
        assert.match(await pg.byTestId('thinking-summary').innerText(), /^Thought for /, 'the reasoning is folded above the answer');
        const { content } = await pg.frames();
        // From the top of the page: what is checked below is what a person sees without scrolling.
        await content.evaluate(() => window.scrollTo(0, 0));
        assert.ok((await pg.output.innerText()).trim().length > 0, 'the answer is shown');
        const seen = await pg.host.boundingBox();
        assert.ok(seen, 'the webview is laid out');
        const right = Math.min(seen.x + seen.width, SMALL_WINDOW.width);
        const bottom = Math.min(seen.y + seen.height, SMALL_WINDOW.height);
        const inView = async (name: string, locator: Locator, height?: number): Promise<string> => {
          const box = await locator.boundingBox();
          assert.ok(box, `${name} is laid out`);
          const end = box.y + (height === undefined ? box.height : Math.min(box.height, height));
          const where = `${name} at ${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}x${Math.round(box.height)}`;
          assert.ok(
            box.x >= seen.x && box.y >= seen.y && box.x + box.width <= right && end <= bottom,
            `${where}, seen up to ${right},${bottom}`,
          );
          return where;
        };
        const places = [
          await inView('the prompt', pg.prompt),
          await inView('Run', pg.run),
          await inView('the answer', pg.output, ANSWER_START_PX),
        ];
        note(`without scrolling, in the webview up to ${Math.round(right)},${Math.round(bottom)}: ${places.join('; ')}`);
        // The model's select shows the whole name picked: beside its label, the side column once left it "oss-reasor".
        const fit = await pg.byTestId('model-select').evaluate((el) => {
          const select = el as HTMLSelectElement;
          const style = getComputedStyle(select);
          const context = document.createElement('canvas').getContext('2d');
          if (context) context.font = style.font;
          const name = select.selectedOptions[0]?.text ?? '';
          // The drop-down arrow takes about 20 px inside the box, with the padding and borders.
          const chrome = ['paddingLeft', 'paddingRight', 'borderLeftWidth', 'borderRightWidth'] as const;
          const needs = (context?.measureText(name).width ?? Infinity) + 20 + chrome.reduce((sum, p) => sum + parseFloat(style[p]), 0);
          return { name, needs: Math.ceil(needs), width: Math.floor(select.getBoundingClientRect().width) };
        });
        assert.ok(
          fit.name && fit.needs <= fit.width,
          `the model select shows ${fit.name} whole (${fit.needs} px needed, ${fit.width} px wide)`,
        );
        note(`the model select shows ${fit.name} whole (${fit.needs} px needed, ${fit.width} px wide)`);
        await shot('answer-first');
        // The person unfolds the reasoning to read how the model got there (README's picture of the playground).
        // A click on the summary toggles the section: it is clicked again only while the section stays folded.
        await actUntil(
          'the reasoning to unfold',
          () => pg.byTestId('thinking-summary').click({ timeout: 5_000 }),
          () => pg.byTestId('thinking').isVisible(),
          { retryAfterMs: 2_000 },
        );
        await wb.restMouse();
        await shot('reasoning-open');

        // The query part is under "Advanced": open it, so its description is seen too (its descriptions are read
        // once it shows open).
        const advanced = pg.content.locator('details.advanced');
        const advancedOpen = (): Promise<boolean> => advanced.evaluate((d) => (d as HTMLDetailsElement).open);
        await actUntil('Advanced to open', () => advanced.locator('> summary').click({ timeout: 5_000 }), advancedOpen, {
          retryAfterMs: 2_000,
        });
        await pg.rendered();
        for (const knob of KNOBS) {
          const control = pg.byTestId(knob);
          const title = (await control.getAttribute('title')) ?? '';
          assert.ok(title.length > 20, `${knob} has hover help (title ${JSON.stringify(title)})`);
          const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
          const descriptions: string[] = [];
          for (const id of ids) {
            const described = pg.content.locator(`[id="${id}"]`);
            if (await described.isVisible()) descriptions.push((await described.innerText()).trim());
          }
          assert.ok(descriptions.includes(title), `${knob} names a visible description saying the same (${JSON.stringify(descriptions)})`);
        }
        note(`hover help and a visible description on ${KNOBS.join(', ')}`);
        // The person rests the pointer on the temperature: its hover help is the description shown under it. (The
        // hover text itself is the browser's native title tooltip, which headless Chromium does not paint into a
        // screenshot: the picture shows the pointed-at knob and the same words, shown.)
        const temperature = pg.byTestId('temperature');
        await actUntil(
          'the pointer to rest on the temperature',
          () => temperature.hover({ timeout: 5_000 }),
          () => temperature.evaluate((el) => el.matches(':hover')),
          { retryAfterMs: 2_000 },
        );
        const help = (await temperature.getAttribute('title')) ?? '';
        const describedBy = ((await temperature.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
        const shownHelp = pg.content.locator(describedBy.map((id) => `[id="${id}"]`).join(', ')).filter({ hasText: help });
        await shownHelp.first().waitFor();
        assert.ok(await temperature.evaluate((el) => el.matches(':hover')), 'the pointer rests on the temperature');
        await shot('temperature-help');
        await wb.restMouse();
        await actUntil(
          'Advanced to fold again',
          () => advanced.locator('> summary').click({ timeout: 5_000 }),
          async () => !(await advancedOpen()),
          { retryAfterMs: 2_000 },
        );

        await wb.runCommand('File: New Untitled Text File');
        // The new file's editor (the playground beside it is no text editor).
        const editor = page.locator('.part.editor .editor-instance .monaco-editor').first();
        await editor.waitFor();
        // Keys go where the caret is: before each key the caret is seen in the editor, else the editor is clicked
        // (Control+A in the workbench or the hidden playground would select something else).
        const caretInEditor = (): Promise<void> =>
          actUntil(
            'the caret in the new file',
            () => editor.locator('.view-lines').click({ timeout: 5_000 }),
            async () => (await editor.getAttribute('class'))?.split(/\s+/).includes('focused') ?? false,
            { retryAfterMs: 2_000 },
          );
        // The code typed (read back from the editor's lines, where spaces are drawn as no-break spaces), then all of
        // it selected (the status bar counts the selected characters): each done again if it did not take.
        const lines = editor.locator('.view-lines');
        let typed = '';
        await actUntil(
          () => `the new file to hold the code (it holds ${JSON.stringify(typed)})`,
          async () => {
            await caretInEditor();
            await page.keyboard.press('Control+A');
            await page.keyboard.insertText(SELECTED_CODE);
          },
          async () => (typed = (await lines.innerText()).replace(/\u00a0/g, ' ')) === SELECTED_CODE,
        );
        await actUntil(
          'the whole code selected',
          async () => {
            await caretInEditor();
            await page.keyboard.press('Control+A');
          },
          () => wb.statusBarText(`(${SELECTED_CODE.length} selected)`).isVisible(),
          { retryAfterMs: 2_000 },
        );
        await wb.runCommand('Hosted Reasoning: Ask About Selection');
        await pg.byTestId('context').waitFor();
        await pg.rendered();
        assert.equal(await pg.byTestId('context-text').innerText(), SELECTED_CODE, 'the selection is shown as the context');
        const question = await eventually('the question field to take the focus', async () => {
          const { content: asked } = await pg.frames();
          const focused = await asked.evaluate(() => {
            const active = document.activeElement as HTMLTextAreaElement | null;
            return active?.dataset.testid === 'prompt'
              ? { value: active.value, selected: active.selectionEnd - active.selectionStart, label: active.labels?.[0]?.textContent ?? '' }
              : undefined;
          });
          return focused;
        });
        assert.equal(question.value, 'Explain this code.', 'a default question the person can change');
        assert.equal(question.selected, question.value.length, 'the default question is selected, so typing replaces it');
        assert.equal(question.label, 'Question about the context');
        await inView('the context', pg.byTestId('context'));
        await inView('the question', pg.prompt);
        await inView('Run', pg.run);
        await shot('ask-about-selection');

        await actUntil(
          'the context to be removed',
          async () => {
            if (await pg.byTestId('context-remove').isVisible()) await pg.byTestId('context-remove').click({ timeout: 5_000 });
          },
          async () => !(await pg.byTestId('context').isVisible()),
        );
        note('Ask About Selection shows the selection as context (removable) and focuses the selected default question');
      } finally {
        if (before) await page.setViewportSize(before);
      }
    },
  };

  const thinking: Step = {
    number: 14,
    id: 'thinking',
    title:
      'a model that thinks for a few seconds: "Thinking…" with a running clock, its reasoning in an open Thinking section, then folded away as the answer appears',
    needs: ['api-key'],
    async run({ shot, note }) {
      await openPlayground();
      // Silent before the first byte, then its reasoning on its own SSE event type, slowly enough to be seen.
      emu.configure({ reasoning: 'event', thinkMs: THINK_MS, tokenIntervalMs: THINKING_TOKEN_MS });
      const prompt = 'Which eviction policy suits a notes app?';
      await pg.ask(prompt);

      // The silence is thinking: the status says so and its clock runs (seen at 0:01 and again at 0:02). Each look
      // reads the status, the clock, the section and the answer together: read one by one, the reasoning could arrive
      // between the clock's look and the section's.
      const clock: string[] = [];
      for (const tick of ['0:01', '0:02']) {
        const seen = await eventually(
          () => `the status to read "Thinking…" at ${tick} (seen: ${clock.join(', ')})`,
          async () => {
            const now = await pg.shown(['status', 'elapsed', 'thinking', 'output']);
            const line = `${now.status.text} ${now.elapsed.text}`;
            if (clock[clock.length - 1] !== line) clock.push(line);
            return now.status.text === 'Thinking…' && now.elapsed.text === tick ? now : undefined;
          },
          THINK_MS + 10_000,
          100,
        );
        assert.equal(seen.thinking.visible, false, `no Thinking section before any reasoning (at ${tick})`);
        assert.equal(seen.output.text.trim(), '', `no answer during the silence (at ${tick}: ${JSON.stringify(seen.output.text)})`);
        if (tick === '0:01') await shot('silent');
      }
      note(`while silent: ${clock.join(' → ')}`);

      // The reasoning streams into the open Thinking section while the answer is still empty (read together: the
      // answer folds the section as it starts).
      let streaming = '';
      const reasoningSeen = await eventually(
        () => `the reasoning in an open Thinking section, with no answer yet (last seen: ${streaming})`,
        async () => {
          const now = await pg.shown(['thinking', 'thinking-summary', 'output']);
          streaming = JSON.stringify({
            thinking: now.thinking.text.slice(0, 60),
            open: now.thinking.open,
            summary: now['thinking-summary'].text,
            answer: now.output.text.slice(0, 60),
          });
          return now.thinking.visible && now.thinking.text.length > 40 && now.output.text.trim() === '' ? now : undefined;
        },
        20_000,
        50,
      );
      assert.equal(reasoningSeen.thinking.open, true, 'open while the model thinks');
      assert.match(reasoningSeen['thinking-summary'].text, /^Thinking · \d+ chars$/);
      await shot('reasoning');

      // The answer starts: the section folds away, saying how long the model thought; the answer shows alone.
      await pg.content.locator('[data-testid="status"]', { hasText: 'Done.' }).waitFor({ timeout: 30_000 });
      // The section and the answer render a frame after the status.
      await pg.rendered();
      const reasoning = composeReasoning({ ...DEFAULT_RUN, modelName: model, prompt });
      const section = pg.content.locator('details.thinking', { has: pg.byTestId('thinking') }); // pane A's
      assert.equal(await section.evaluate((d) => (d as HTMLDetailsElement).open), false, 'folded once the answer came');
      assert.equal(await pg.byTestId('thinking').isVisible(), false);
      const summary = await pg.byTestId('thinking-summary').innerText();
      assert.match(summary, new RegExp(`^Thought for \\d+\\.\\d\\d s · ${reasoning.length} chars$`));
      const answer = await pg.output.innerText();
      assert.match(answer, new RegExp(`Answer from ${escapeRegExp(model)}`));
      assert.ok(!answer.includes(reasoning.slice(0, 30)), 'the answer shows none of the reasoning');
      assert.equal(await pg.byTestId('elapsed').innerText(), '', 'the clock stops once the answer comes');
      note(`folded: "${summary}"; the answer has ${answer.length} characters`);
    },
  };

  return [streaming, hostile, answerFirst, thinking];
}
