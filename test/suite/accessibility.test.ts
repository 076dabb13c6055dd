// The two webview pages as people who need high contrast, a keyboard or a screen reader meet them, in a real VS Code:
// axe-core finds no violation in the playground (with an answer shown, code block included) or the report in either
// High Contrast theme; the report's chart marks stand 3:1 from the page in all four default themes, the base series
// set apart by a pattern, not only a colour. By keyboard, the focus never falls to the page's body: Run and Stop hand
// it to each other, a removed *Evaluate base* hands it to its dataset's heading, a cancelled picker gives it back; the
// end of a run and a new verdict are said in a polite live region. The report's comparison on a person's own questions
// (a kept comparison naming the tuned model) has no violation either; its filter and folded reasoning work by keyboard.
// The pages are read and driven through the runner's browser (webviewPage.ts); the theme is VS Code's own setting, and
// the pages follow it as they do for a person.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import type { PlaygroundPanel } from '../../src/features/playground/host/playgroundPanel';
import type { ReportPanel } from '../../src/features/evaluate/report/host/reportPanel';
import { comparisonsRoot } from '../../src/features/evaluate/compare/compareCommand';
import { ComparisonLog } from '../../src/features/evaluate/compare/comparisonLog';
import { verdictSentence } from '../../src/features/evaluate/report/page/reportText';
import { startEvaluation } from '../../src/features/evaluate/evaluateCommand';
import { contrastRatio, parseColour, type Rgba } from './contrast';
import { capturingQuickPicks, modelNode, waitFor, whenPanelReady } from './helpers';
import { EMULATOR_SETTINGS, useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';
import { webviewPage, type AxeViolation, type PageView, type Paint, type WebviewPage } from './webviewPage';

const rig = useRig();
/** A key of its own: the tuned model it adds must not appear in other files' model lists (Chat's, vscode.lm's). */
const KEY = 'a11y-key';
const BASE = 'oss-reasoner-8b';
const TUNED = 'a11y-tuned';
const DATASET = 'a11y-set';
/** Evaluated for the tuned model only: the report offers *Evaluate base* on it. */
const TUNED_ONLY = 'a11y-tuned-only';

/** VS Code's four default themes and the class each gives a webview's body. */
const THEMES = {
  darkHighContrast: { name: 'Default High Contrast', bodyClass: 'vscode-high-contrast' },
  lightHighContrast: { name: 'Default High Contrast Light', bodyClass: 'vscode-high-contrast-light' },
  darkModern: { name: 'Default Dark Modern', bodyClass: 'vscode-dark' },
  lightModern: { name: 'Default Light Modern', bodyClass: 'vscode-light' },
} as const;
type Theme = (typeof THEMES)[keyof typeof THEMES];
const HIGH_CONTRAST = [THEMES.darkHighContrast, THEMES.lightHighContrast];

/** Sets the colour theme and waits until the page shows it (the webview takes VS Code's colours after the setting). */
async function useTheme(page: WebviewPage, pageTestId: string, theme: Theme): Promise<void> {
  await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme.name, vscode.ConfigurationTarget.Global);
  await waitFor(
    `the page in ${theme.name}`,
    async () => {
      const classes = (await page.paint(pageTestId)).bodyClass.split(/\s+/);
      const light = classes.includes('vscode-high-contrast-light');
      const shown =
        theme.bodyClass === 'vscode-high-contrast' ? classes.includes(theme.bodyClass) && !light : classes.includes(theme.bodyClass);
      return shown || undefined;
    },
    { timeoutMs: 15_000, describe: async () => (await page.paint(pageTestId)).bodyClass },
  );
}

function described(violations: AxeViolation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target}: ${n.summary.replace(/\n/g, ' ')}`).join('\n')}`)
    .join('\n');
}

/** axe-core's findings in each High Contrast theme, all of them, then one assertion that there are none. */
async function assertNoAxeViolation(page: WebviewPage, pageTestId: string, what: string): Promise<void> {
  const found: string[] = [];
  for (const theme of HIGH_CONTRAST) {
    await useTheme(page, pageTestId, theme);
    const violations = await page.axe();
    if (violations.length > 0) found.push(`${what} in ${theme.name}:\n${described(violations)}`);
  }
  assert.deepEqual(found, [], `axe-core found violations:\n${found.join('\n')}`);
}

/** The best contrast one of a mark's paints (its fill, outline or background) has on the page. */
function markContrast(paint: Paint, page: Rgba): number {
  const paints = [paint.fill, paint.stroke, paint.background].map(parseColour).filter((c): c is Rgba => c !== undefined);
  return Math.max(1, ...paints.map((c) => contrastRatio(c, page)));
}

describe(`accessibility: the playground and the report in High Contrast (axe-core) and the chart in every theme ${EVERY_HOST_TAG}`, function () {
  this.timeout(90_000);
  let playground: WebviewPage;
  let report: WebviewPage;

  before(async function () {
    const a = webviewPage('prompt');
    const b = webviewPage('export-csv');
    if (!a || !b) this.skip(); // a runner without its own browser (test:electron): nothing can read the pages
    playground = a;
    report = b;
    rig.emu.setKey(KEY, { models: [BASE] });
    await rig.useKey(KEY);
    await rig.emu.addCustomModel(KEY, TUNED, { baseModel: BASE });
    rig.emu.configure({
      datasets: {
        ...rig.emu.options.datasets,
        [DATASET]: { total: 60, scores: { [TUNED]: 0.8, [BASE]: 0.55 } },
        [TUNED_ONLY]: { total: 50, scores: { [TUNED]: 0.9, [BASE]: 0.4 } },
      },
    });
    await rig.api.models.refresh();
    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    for (const [model, set] of [
      [TUNED, DATASET],
      [BASE, DATASET],
      [TUNED, TUNED_ONLY],
    ] as const) {
      const jobId = await rig.api.evaluate(model, set);
      assert.ok(jobId, `the evaluation of ${model} on ${set} did not start`);
      await waitFor(`the evaluation of ${model} on ${set}`, () => rig.api.services.jobs.get(scope, `evaluation:${jobId}`)?.result, {
        timeoutMs: 20_000,
      });
    }
  });

  beforeEach(() => vscode.commands.executeCommand('notifications.clearAll'));

  /** A finished comparison of the tuned model and its base on three questions: one fixed, one both right, one failed. */
  function keptComparison(): ComparisonLog {
    const log = ComparisonLog.create(comparisonsRoot(rig.api.services), {
      id: `a11y-${Date.now().toString(36)}`,
      setName: 'a11y-questions.jsonl',
      createdAt: Date.now(),
      models: [TUNED, BASE],
      scoring: 'normalized',
      knobs: { useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0.7 },
      items: [
        { question: 'Which port does the service use?', expected: '443', line: 1 },
        { question: 'How many replicas?', expected: '3', line: 2 },
        { question: 'Which region?', expected: 'eu-west', line: 3 },
      ],
    });
    const at = Date.now();
    log.append({ kind: 'answer', item: 0, model: TUNED, text: '443', reasoning: 'The docs say HTTPS.', at });
    log.append({ kind: 'answer', item: 0, model: BASE, text: '80', reasoning: 'Plain HTTP, I think.', at });
    log.append({ kind: 'answer', item: 1, model: TUNED, text: '3', at });
    log.append({ kind: 'answer', item: 1, model: BASE, text: '3', at });
    log.append({ kind: 'answer', item: 2, model: TUNED, text: 'eu-west', at });
    log.append({ kind: 'answer', item: 2, model: BASE, error: 'The service said "overloaded" (503).', at });
    return log;
  }

  afterEach(() => {
    rig.emu.configure({ tokenIntervalMs: EMULATOR_SETTINGS.tokenIntervalMs });
    for (const panel of rig.api.playground.panels) panel.dispose();
    for (const panel of rig.api.report.panels) panel.dispose();
  });

  after(async () => {
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    await rig.clearKey();
  });

  async function openPlayground(): Promise<PlaygroundPanel> {
    const before = new Set(rig.api.playground.panels);
    await vscode.commands.executeCommand(COMMANDS.openPlayground, { modelName: BASE });
    const panel = rig.api.playground.panels.find((p) => !before.has(p));
    assert.ok(panel, 'the command opened no panel');
    return whenPanelReady(panel);
  }

  async function openReport(): Promise<ReportPanel> {
    const node = await modelNode(rig.api, TUNED);
    assert.ok(node, `${TUNED} is not in the Models view`);
    const panel = await vscode.commands.executeCommand<ReportPanel | undefined>(COMMANDS.openEvaluationReport, node);
    assert.ok(panel, 'the command returned no panel');
    await panel.ready;
    await waitFor('the chart', async () => ((await report.read())['chart-bar-base']?.length ? true : undefined));
    return panel;
  }

  it('the playground, with an answer and its code block shown, has no axe-core violation in either High Contrast theme', async () => {
    await openPlayground();
    await waitFor('the model list', async () => ((await playground.read())['model-select']?.[0]?.value === BASE ? true : undefined), {
      timeoutMs: 15_000,
    });
    await playground.fill('prompt', 'How should a cache evict?');
    await playground.click('run');
    await waitFor('the answer', async () => {
      const v = await playground.read();
      return v.status?.[0]?.text === 'Done.' && /Confidence/.test(v.output?.[0]?.text ?? '') ? true : undefined;
    });
    await assertNoAxeViolation(playground, 'prompt', 'the playground');
  });

  it('the report, with its chart, verdict and tables, has no axe-core violation in either High Contrast theme', async () => {
    await openReport();
    await assertNoAxeViolation(report, 'export-csv', 'the report');
  });

  it('the report with a comparison on the person’s questions has no axe-core violation in either High Contrast theme', async () => {
    const log = keptComparison();
    try {
      await openReport();
      await waitFor('the question table', async () => ((await report.read())['question-row']?.length === 3 ? true : undefined));
      await assertNoAxeViolation(report, 'export-csv', 'the report with a comparison');
    } finally {
      log.remove();
    }
  });

  it('keyboard: the filter “only where they differ” toggles with Space and keeps the focus; a reasoning unfolds with Enter', async () => {
    const log = keptComparison();
    try {
      await openReport();
      const before = await waitFor('the question table', async () => {
        const v = await report.read();
        return v['question-row']?.length === 3 ? v : undefined;
      });
      assert.deepEqual(
        before['question-reasoning-text']?.map((e) => [e.open, e.visible]),
        [
          [false, false],
          [false, false],
        ],
        'each reasoning folded',
      );
      await report.press('question-differ-filter', 'Space');
      const filtered = await waitFor('one question where they differ', async () => {
        const v = await report.read();
        return v['question-row']?.length === 1 ? v : undefined;
      });
      assert.equal(filtered['question-differ-filter']?.[0]?.value, 'on');
      assert.deepEqual(focusedIds(filtered), ['question-differ-filter'], 'the focus after the filter drew the table again');
      assert.deepEqual(
        filtered['question-row-bucket']?.map((e) => e.text),
        ['fixed'],
      );
      await report.press('question-reasoning', 'Enter');
      await waitFor('the first reasoning unfolded', async () => {
        const text = (await report.read())['question-reasoning-text']?.[0];
        return text?.open && text.visible ? true : undefined;
      });
      await report.press('question-differ-filter', 'Space');
      await waitFor('every question again', async () => ((await report.read())['question-row']?.length === 3 ? true : undefined));
    } finally {
      log.remove();
    }
  });

  it('the chart’s bars and legend swatches stand 3:1 from the page in all four default themes; the base series has a pattern too', async () => {
    await openReport();
    for (const theme of Object.values(THEMES)) {
      await useTheme(report, 'export-csv', theme);
      for (const role of ['model', 'base'] as const) {
        for (const mark of [`chart-bar-${role}`, `legend-swatch-${role}`]) {
          const painted = await report.paint(mark);
          const background = parseColour(painted.pageBackground);
          assert.ok(background, `the page's background in ${theme.name}: ${painted.pageBackground}`);
          assert.ok(painted.elements.length > 0, `no ${mark} in the report`);
          for (const paint of painted.elements) {
            const ratio = markContrast(paint, background);
            assert.ok(
              ratio >= 3,
              `${mark} in ${theme.name}: ${ratio.toFixed(2)}:1 on ${painted.pageBackground} (${JSON.stringify(paint)})`,
            );
          }
        }
      }
      // Told apart without colour: the model's marks are solid, the base's filled with a pattern.
      for (const kind of ['chart-bar', 'legend-swatch']) {
        const model = (await report.paint(`${kind}-model`)).elements[0];
        const base = (await report.paint(`${kind}-base`)).elements[0];
        assert.ok(model && parseColour(model.fill), `${kind}-model in ${theme.name} is not solid: ${JSON.stringify(model)}`);
        assert.match(base?.fill ?? '', /^url\(/, `${kind}-base in ${theme.name} has no pattern: ${JSON.stringify(base)}`);
      }
    }
  });

  it('the report has one primary button, Add a model…; its exports look secondary', async () => {
    await openReport();
    for (const theme of [THEMES.darkModern, THEMES.lightModern]) {
      await useTheme(report, 'export-csv', theme);
      const background = async (testId: string) => (await report.paint(testId)).elements[0]?.background ?? '';
      const primary = await background('add-model');
      assert.ok((parseColour(primary)?.a ?? 0) > 0, `Add a model… in ${theme.name} has no background of its own: ${primary}`);
      for (const exported of ['export-markdown', 'export-csv']) {
        const secondary = await background(exported);
        assert.notEqual(secondary, primary, `${exported} in ${theme.name} looks as primary as Add a model… (${primary})`);
      }
    }
  });

  it('keyboard: Run pressed with Space hands the focus to Stop, Stop back to Run; the end of a run is said with how the answer begins', async () => {
    await openPlayground();
    await waitFor('the model list', async () => ((await playground.read())['model-select']?.[0]?.value === BASE ? true : undefined), {
      timeoutMs: 15_000,
    });
    await playground.fill('prompt', 'How should a cache evict?');
    // Slow tokens: the run lasts until Stop.
    rig.emu.configure({ tokenIntervalMs: 300 });
    await playground.press('run', 'Space');
    const running = await waitFor('the run to start', async () => {
      const v = await playground.read();
      return v.stop?.[0]?.disabled === false ? v : undefined;
    });
    assert.deepEqual(focusedIds(running), ['stop'], 'the focus after Run disabled itself');
    await playground.press('stop', 'Space');
    const stopped = await waitFor('the run to stop', async () => {
      const v = await playground.read();
      return v.status?.[0]?.text === 'Stopped.' && v.announcement?.[0]?.text ? v : undefined;
    });
    assert.deepEqual(focusedIds(stopped), ['run'], 'the focus after Stop disabled itself');
    assert.match(stopped.announcement?.[0]?.text ?? '', new RegExp(`^${BASE} stopped, [\\d,]+ characters of an answer\\.$`));

    rig.emu.configure({ tokenIntervalMs: EMULATOR_SETTINGS.tokenIntervalMs });
    await playground.press('run', 'Enter');
    const done = await waitFor('the answer', async () => {
      const v = await playground.read();
      return v.status?.[0]?.text === 'Done.' && /answered/.test(v.announcement?.[0]?.text ?? '') ? v : undefined;
    });
    // Run → Stop while it ran → Run again once Stop disabled itself at the end.
    assert.deepEqual(focusedIds(done), ['run'], 'the focus once the run ended');
    assert.match(
      done.announcement?.[0]?.text ?? '',
      new RegExp(
        `^${BASE} answered, [\\d,]+ characters: Answer from ${BASE} You asked: “How should a cache evict\\?”\\. The short version`,
      ),
    );
  });

  it('keyboard: a cancelled “Add a model…” picker gives the focus back to its button', async () => {
    await openReport();
    await capturingQuickPicks(async (picks) => {
      await report.press('add-model', 'Enter');
      const pick = await waitFor('the model picker', () => picks[0]);
      await waitFor('the picker to show its models', () => (pick.items.length > 0 ? true : undefined), { timeoutMs: 15_000 });
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    });
    await frameFocusedAgain(report);
    await waitFor('the focus back on Add a model…', async () => (focusedIds(await report.read())[0] === 'add-model' ? true : undefined), {
      describe: async () => focusedIds(await report.read()),
    });
  });

  // The cause of the flaky run above (1 in 3 on 1.139): a view posted while the picker was open (a job of this scope
  // changed) re-rendered the page, which replaced the control the focus was to come back to: it came back to nothing.
  it('keyboard: the focus comes back to “Add a model…” when the report re-rendered while its picker was open', async () => {
    await openReport();
    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    let jobId: string | undefined;
    rig.emu.configure({ holdEvaluations: true }); // running until the page has shown it, however slow the machine
    try {
      await capturingQuickPicks(async (picks) => {
        await report.press('add-model', 'Enter');
        const pick = await waitFor('the model picker', () => picks[0]);
        await waitFor('the picker to show its models', () => (pick.items.length > 0 ? true : undefined), { timeoutMs: 15_000 });
        let hidden = false;
        const hides = pick.onDidHide(() => (hidden = true));
        // A job starting meanwhile (not through the command, which would reveal the Jobs view and close the picker).
        jobId = await startEvaluation(rig.api.services, TUNED, DATASET, { revealJobs: false });
        assert.ok(jobId, 'the evaluation did not start');
        await waitFor('the report to show the new evaluation running', async () =>
          (await report.read()).dataset?.some((d) => d.text.includes(`Evaluating ${TUNED} on this dataset…`)) ? true : undefined,
        );
        hides.dispose();
        assert.equal(hidden, false, 'the picker closed before the test closed it');
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      });
      await frameFocusedAgain(report);
      await waitFor('the focus back on Add a model…', async () => (focusedIds(await report.read())[0] === 'add-model' ? true : undefined), {
        describe: async () => focusedIds(await report.read()),
      });
    } finally {
      rig.emu.configure({ holdEvaluations: false });
      // Ended before the next test: its report must show no running evaluation.
      const held = jobId;
      if (held !== undefined) {
        await waitFor('the held evaluation to end', () => rig.api.services.jobs.get(scope, `evaluation:${held}`)?.result, {
          timeoutMs: 20_000,
        });
      }
    }
  });

  it('keyboard: Evaluate base, removed once its evaluation starts, hands the focus to its dataset’s heading; the new verdict is said', async () => {
    const panel = await openReport();
    const before = await report.read();
    const index = before['dataset-heading']?.findIndex((h) => h.text === TUNED_ONLY) ?? -1;
    assert.ok(index >= 0, `no section for ${TUNED_ONLY}`);
    assert.equal(before['evaluate-base']?.length, 1, 'one Evaluate base button');
    await report.press('evaluate-base', 'Enter');
    const gone = await waitFor('Evaluate base to go', async () => {
      const v = await report.read();
      return v['evaluate-base'] === undefined ? v : undefined;
    });
    assert.deepEqual(focusedIds(gone), ['dataset-heading'], 'the focus once the button went');
    assert.equal(gone['dataset-heading']?.[index]?.focused, true, `the focus on ${TUNED_ONLY}’s heading`);
    const said = await waitFor(
      'the new verdict said',
      async () => {
        const text = (await report.read()).announcement?.[0]?.text ?? '';
        return text ? text : undefined;
      },
      { timeoutMs: 20_000 },
    );
    const comparison = panel.view?.datasets.find((d) => d.datasetName === TUNED_ONLY)?.comparisons[0];
    assert.ok(comparison, `no comparison on ${TUNED_ONLY} in the report's view`);
    assert.equal(comparison.verdict, 'better');
    assert.equal(said, `${TUNED_ONLY}: ${verdictSentence(TUNED, comparison)}`);
  });
});

/**
 * Waits until VS Code has given the keyboard focus back to the page's frame, focusing the editor group again (what the
 * quick pick's own return of the focus does) while it has not. VS Code 1.139 can drop it when a picker closes within a
 * few hundred milliseconds of opening, as a test closes it and a person rarely does: the webview's frame reports its
 * focus to the workbench by a 250 ms poll, and the workbench passes the focus on into the page only if, 50 ms after
 * focusing the frame, it still counts the webview focused; a poll's "blurred" (the picker took the focus) still on its
 * way then undoes that count, and the page is never focused (seen in 2 runs of 9 under load: the page's window had no
 * focus event at all after the picker closed; with this, 9 runs passed, one of them after a second try). What the
 * tests hold is ours: where the focus lands once the page has it.
 */
async function frameFocusedAgain(page: WebviewPage): Promise<void> {
  let tries = 0;
  await waitFor(
    'the report’s frame to have the focus again',
    async () => {
      if (await page.hasFocus()) return true;
      // VS Code's own return first; a second try each second (in the run that showed it, one was enough).
      if (++tries % 10 === 0) await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
      return undefined;
    },
    { timeoutMs: 20_000, intervalMs: 100 },
  );
}

/** The test ids of the focused element (none: the focus is on the body or an element without one). */
function focusedIds(view: PageView): string[] {
  return Object.entries(view)
    .filter(([, elements]) => elements.some((e) => e.focused))
    .map(([id]) => id);
}
