// Step 23: a comparison on a person's own questions (issue 37), as a person runs it: right-click a question set in
// the Explorer, Compare Models on Questions…, take the tuned model and its base the picker offers first (after step
// 2's finetune), choose the scoring, confirm the count of requests, and
// open the result from the comparison's row in the Jobs view (Open Comparison Result). The report's section is read
// from the page: its rows, its buckets and its verdict; README's picture is that section. The emulator gives each of
// the two models one short answer to every question (responseTextByModel), so the buckets are known before the run:
// the tuned model fixes the questions whose expected answer is its own, regresses those whose expected answer is its
// base's, and both are wrong on the rest.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Emulator } from '../service/emulator';
import { PlaygroundPage } from './playgroundPage';
import type { Step } from './stepRunner';
import { actUntil, escapeRegExp, eventually, type Workbench } from './workbench';

const SET_NAME = 'lumen-questions.jsonl';
const QUESTIONS: { question: string; expected: string }[] = [
  { question: 'How long do deleted notes stay in the Trash?', expected: '30 days' },
  { question: 'How long can an administrator restore a note from the history?', expected: '90 days' },
  { question: 'How long is the free trial of the Team plan?', expected: '30 days' },
  { question: 'Which roles can a shared notebook give?', expected: 'Viewer, Commenter, Editor' },
  { question: 'In which format are notes written?', expected: 'Markdown' },
  { question: 'How long are exported notes kept for download?', expected: '30 days' },
];
/** Tall enough for the section's verdict, tables and the question table in one picture. */
const TALL_WINDOW_HEIGHT = 1100;

type Bucket = 'fixed' | 'regressed' | 'bothRight' | 'bothWrong';
const BUCKET_WORDS: Record<Bucket, string> = { fixed: 'fixed', regressed: 'regressed', bothRight: 'both right', bothWrong: 'both wrong' };

/**
 * `answers`: what the tuned model and its base answer to every question. The two models are the ones the picker offers
 * first, ticked, as "tuned" and "its base" (the newest finetune finished here, and the model it was made from).
 */
export function compareSteps(p: { workbench: Workbench; emu: Emulator; workspace: string; answers: readonly [string, string] }): Step[] {
  const { workbench: wb, emu } = p;
  const page = wb.page;
  const [subjectAnswer, otherAnswer] = p.answers;
  const bucketOf = (expected: string): Bucket => {
    const s = expected === subjectAnswer;
    const o = expected === otherAnswer;
    return s && o ? 'bothRight' : s ? 'fixed' : o ? 'regressed' : 'bothWrong';
  };
  const expectedBuckets = QUESTIONS.map((q) => bucketOf(q.expected));
  const count = (b: Bucket): number => expectedBuckets.filter((x) => x === b).length;

  const compare: Step = {
    number: 23,
    id: 'compare-questions',
    title:
      "right-click a question set → Compare Models on Questions…, the tuned model and its base offered first, normalized match, Send; the Jobs row's Open Comparison Result shows the table, buckets and verdict",
    needs: ['api-key', 'finetune'],
    timeoutMs: 240_000,
    async run({ shot, note }) {
      fs.writeFileSync(path.join(p.workspace, SET_NAME), QUESTIONS.map((q) => JSON.stringify(q)).join('\n') + '\n');
      await wb.showContainer('Explorer');
      await wb.contextMenu(await wb.waitForRow('Files Explorer', SET_NAME), 'Compare Models on Questions…');

      // The models: a multi-select pick offering first, ticked, the newest tuned model and its base (from the finetune
      // that made it). The rest of the service's models follow, unticked.
      await wb.quickInputTitled(/Compare which models\?/);
      const rows = wb.quickInput.locator('.monaco-list-row');
      const isTicked = (row: ReturnType<typeof rows.nth>): Promise<boolean> => row.getAttribute('aria-checked').then((v) => v === 'true');
      const nameOf = async (row: ReturnType<typeof rows.nth>): Promise<string> =>
        (await row.locator('.label-name').first().innerText()).trim();
      const described = async (word: string): Promise<string> => {
        const row = rows.filter({ has: page.locator('.label-description', { hasText: new RegExp(`^${word}$`) }) });
        await row.first().waitFor();
        assert.equal(await row.count(), 1, `one row described "${word}"`);
        assert.ok(await isTicked(row.first()), `the "${word}" row is ticked when the picker opens`);
        return nameOf(row.first());
      };
      const subject = await described('tuned');
      const other = await described('its base');
      assert.equal(await nameOf(rows.nth(0)), subject, 'the tuned model is offered first');
      assert.equal(await nameOf(rows.nth(1)), other, 'its base second');
      note(`comparing ${subject} with its base ${other}`);
      emu.configure({ responseTextByModel: { [subject]: subjectAnswer, [other]: otherAnswer } });
      // Each row is clicked while it is not as wanted: the two models ticked, every other row not.
      let states: string[] = [];
      await actUntil(
        () => `only ${subject} and ${other} ticked (rows: ${JSON.stringify(states)})`,
        async () => {
          for (let i = 0; i < (await rows.count()); i++) {
            const row = rows.nth(i);
            const want = [subject, other].includes(await nameOf(row));
            if ((await isTicked(row)) !== want) {
              await row.locator('.label-name').first().click({ timeout: 5_000 });
              return;
            }
          }
        },
        async () => {
          states = [];
          let right = true;
          for (let i = 0; i < (await rows.count()); i++) {
            const row = rows.nth(i);
            const name = await nameOf(row);
            const ticked = await isTicked(row);
            states.push(`${name}: ${ticked}`);
            if (ticked !== [subject, other].includes(name)) right = false;
          }
          return right && states.length >= 2;
        },
        { retryAfterMs: 1_000 },
      );
      await wb.acceptQuickInput('the models taken (the scoring asked next)', () => wb.quickInputShowsTitle('How are the answers scored?'));
      await wb.pickQuickPickItem(
        /^Normalized match/,
        'the scoring taken',
        async () => !(await wb.quickInputShowsTitle('How are the answers scored?')),
      );

      // The count of requests, confirmed before anything is sent.
      const dialog = page.locator('.monaco-dialog-box');
      await dialog.getByText(`${QUESTIONS.length * 2} requests to the service: ${QUESTIONS.length} questions × 2 models.`).waitFor();
      const send = dialog.getByRole('button', { name: 'Send' });
      await actUntil(
        'the dialog to take Send and close',
        async () => {
          if (await send.isVisible()) await send.click({ timeout: 5_000 });
        },
        async () => !(await dialog.isVisible()),
      );

      // The result, opened as a person finds it later too: the comparison's row in the Jobs view, once done.
      await wb.showContainer('Hosted Reasoning');
      const row = await wb.waitForRow(
        'Jobs',
        new RegExp(
          `^Compare ${escapeRegExp(subject)} vs ${escapeRegExp(other)} on ${escapeRegExp(SET_NAME)}, done · ${QUESTIONS.length * 2} requests$`,
        ),
        150_000,
      );
      const reportPage = new PlaygroundPage(page);
      const section = reportPage.byTestId('question-comparison').filter({ hasText: `On your questions: ${SET_NAME}` });
      await wb.inlineAction(row, 'Open Comparison Result', {
        what: 'the report to show the comparison',
        holds: async () => (await section.count()) > 0,
      });

      // The table: a row per question, each with its bucket; the buckets' counts; the verdict in words.
      let questions: string[] = [];
      await eventually(
        () => `a row per question in the table (it shows ${JSON.stringify(questions)})`,
        async () => {
          questions = await section.getByTestId('question-text').allInnerTexts();
          return questions.length === QUESTIONS.length ? true : undefined;
        },
      );
      assert.deepEqual(
        questions.map((r) => r.trim()),
        QUESTIONS.map((q) => q.question),
      );
      const buckets = (await section.getByTestId('question-row-bucket').allInnerTexts()).map((b) => b.trim());
      assert.deepEqual(
        buckets,
        expectedBuckets.map((b) => BUCKET_WORDS[b]),
      );
      const pair = section.getByTestId('question-pair');
      for (const b of Object.keys(BUCKET_WORDS) as Bucket[]) {
        assert.equal((await pair.getByTestId(`question-bucket-${b}`).innerText()).trim(), String(count(b)), `the ${b} count`);
      }
      const verdict = (await section.getByTestId('question-verdict').first().innerText()).trim();
      note(`verdict: ${verdict}`);
      assert.match(
        verdict,
        new RegExp(
          `^${escapeRegExp(subject)} fixed ${count('fixed')} and regressed ${count('regressed')} of ${QUESTIONS.length} against ${escapeRegExp(other)};`,
        ),
      );

      // README's picture: notifications read and dismissed, a window tall enough for the section, its heading at the top.
      await wb.clearNotifications();
      const before = page.viewportSize();
      assert.ok(before, 'the window has a size');
      await page.setViewportSize({ width: before.width, height: TALL_WINDOW_HEIGHT });
      const heading = section.getByTestId('question-comparison-heading');
      const table = section.getByTestId('question-table');
      let layout = {};
      await actUntil(
        () => `the section's heading to its table in view (${JSON.stringify(layout)})`,
        () => heading.evaluate((h) => h.scrollIntoView({ block: 'start' })),
        async () => {
          const [seen, headingBox, tableBox] = [
            await reportPage.host.boundingBox(),
            await heading.boundingBox(),
            await table.boundingBox(),
          ];
          layout = { webview: seen, heading: headingBox, table: tableBox };
          const inView = (box: typeof seen): boolean => !!seen && !!box && box.y >= seen.y && box.y + box.height <= seen.y + seen.height;
          return inView(headingBox) && inView(tableBox);
        },
        { retryAfterMs: 2_000 },
      );
      await shot('table');
      await page.setViewportSize(before);
    },
  };
  return [compare];
}
