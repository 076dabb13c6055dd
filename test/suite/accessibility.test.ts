// The two webview pages as people who need high contrast, a keyboard or a screen reader meet them, in a real VS Code:
// axe-core finds no violation in the playground (with an answer shown, code block included) or the report in either
// High Contrast theme; the report's chart marks stand 3:1 from the page in all four default themes, the base series
// set apart by a pattern, not only a colour. The pages are read and driven through the runner's browser
// (webviewPage.ts); the theme is VS Code's own setting, and the pages follow it as they do for a person.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import type { PlaygroundPanel } from '../../src/features/playground/host/playgroundPanel';
import type { ReportPanel } from '../../src/features/evaluate/report/host/reportPanel';
import { contrastRatio, parseColour, type Rgba } from './contrast';
import { modelNode, waitFor, whenPanelReady } from './helpers';
import { useRig } from './rig';
import { webviewPage, type AxeViolation, type Paint, type WebviewPage } from './webviewPage';

const rig = useRig();
const KEY = 'demo-key';
const BASE = 'oss-reasoner-8b';
const TUNED = 'a11y-tuned';
const DATASET = 'a11y-set';

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

describe('accessibility: the playground and the report in High Contrast (axe-core) and the chart in every theme', function () {
  this.timeout(90_000);
  let playground: WebviewPage;
  let report: WebviewPage;

  before(async function () {
    const a = webviewPage('prompt');
    const b = webviewPage('export-csv');
    if (!a || !b) this.skip(); // a runner without its own browser (test:electron): nothing can read the pages
    playground = a;
    report = b;
    await rig.useKey(KEY);
    await rig.emu.addCustomModel(KEY, TUNED, { baseModel: BASE });
    rig.emu.configure({ datasets: { ...rig.emu.options.datasets, [DATASET]: { total: 60, scores: { [TUNED]: 0.8, [BASE]: 0.55 } } } });
    await rig.api.models.refresh();
    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    for (const model of [TUNED, BASE]) {
      const jobId = await rig.api.evaluate(model, DATASET);
      assert.ok(jobId, `the evaluation of ${model} did not start`);
      await waitFor(`the evaluation of ${model}`, () => rig.api.services.jobs.get(scope, `evaluation:${jobId}`)?.result, {
        timeoutMs: 20_000,
      });
    }
  });

  beforeEach(() => vscode.commands.executeCommand('notifications.clearAll'));

  afterEach(() => {
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
});
