// The accuracy chart: inline SVG built from numbers (no library), one group of bars per dataset, each bar the newest
// evaluation of a model with its 95 % interval as a whisker. Colours come from classes in media/report.css that read
// VS Code's theme variables; the policy forbids inline styles. The series differ by more than colour: the model's bars
// are solid, the base's and the added models' are hatched (patterns defined here, coloured by the same CSS), so they
// are told apart in any theme and by people who do not see the colours. Screen readers get the role="img" summary,
// and the same numbers in the table below it.
import type { ReportView } from '../protocol';
import { chartSummary, percent } from './reportText';

const SVG = 'http://www.w3.org/2000/svg';
const BAR = 22;
const GAP = 6;
const GROUP_GAP = 28;
const HEIGHT = 180;
const TOP = 12;
const LEFT = 44;
const LABEL = 36;

function el<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The roles whose marks are hatched (media/report.css fills them with these patterns); the model's are solid. */
const HATCHED_ROLES = ['base', 'added'] as const;
const hatchId = (role: (typeof HATCHED_ROLES)[number]) => `hatch-${role}`;

/** Diagonal stripes over nothing (the page shows between them), one pattern per hatched role, leaning opposite ways. */
function hatches(): SVGDefsElement {
  const defs = el('defs', {});
  for (const role of HATCHED_ROLES) {
    const pattern = el('pattern', {
      id: hatchId(role),
      patternUnits: 'userSpaceOnUse',
      width: 6,
      height: 6,
      patternTransform: `rotate(${role === 'base' ? 45 : -45})`,
    });
    pattern.append(el('line', { x1: 0, y1: 0, x2: 0, y2: 6, class: `hatch ${role}` }));
    defs.append(pattern);
  }
  return defs;
}

/** A legend swatch: the same mark as the role's bars, so the legend shows the pattern too. */
export function swatch(role: 'model' | (typeof HATCHED_ROLES)[number]): SVGSVGElement {
  const svg = el('svg', { class: 'swatch', width: 14, height: 14, viewBox: '0 0 14 14', 'aria-hidden': 'true', focusable: 'false' });
  svg.append(el('rect', { x: 1, y: 1, width: 12, height: 12, class: `bar ${role}`, 'data-testid': `legend-swatch-${role}` }));
  return svg;
}

export function chart(view: ReportView): SVGSVGElement {
  const groups = view.datasets.map((d) => d.columns.filter((c) => c.evaluations[0] !== undefined));
  const width = LEFT + groups.reduce((w, cols) => w + Math.max(1, cols.length) * (BAR + GAP) + GROUP_GAP, 0);
  const svg = el('svg', {
    role: 'img',
    'aria-label': chartSummary(view),
    viewBox: `0 0 ${Math.max(width, 200)} ${TOP + HEIGHT + LABEL}`,
    width: Math.max(width, 200),
    height: TOP + HEIGHT + LABEL,
    class: 'chart',
    'data-testid': 'report-chart',
  });
  svg.append(hatches());
  const y = (value: number) => TOP + HEIGHT * (1 - Math.min(1, Math.max(0, value)));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(el('line', { x1: LEFT - 4, x2: width, y1: y(tick), y2: y(tick), class: 'grid' }));
    svg.append(el('text', { x: LEFT - 8, y: y(tick) + 4, class: 'axis', 'text-anchor': 'end' }, `${tick * 100}%`));
  }
  let x = LEFT + GAP;
  view.datasets.forEach((dataset, i) => {
    const columns = groups[i] ?? [];
    const start = x;
    for (const column of columns) {
      const e = column.evaluations[0]!;
      const bar = el('rect', {
        x,
        y: y(e.accuracy),
        width: BAR,
        height: TOP + HEIGHT - y(e.accuracy),
        class: `bar ${column.role}`,
        'data-testid': `chart-bar-${column.role}`,
      });
      bar.append(el('title', {}, `${column.name}: ${percent(e.accuracy)}`));
      svg.append(bar);
      if (e.lower !== undefined && e.upper !== undefined) {
        const mid = x + BAR / 2;
        // Each whisker line twice: a wider one in the page's colour beneath, so it stands out over any bar.
        for (const kind of ['whisker-halo', 'whisker']) {
          svg.append(el('line', { x1: mid, x2: mid, y1: y(e.upper), y2: y(e.lower), class: kind }));
          svg.append(el('line', { x1: mid - 5, x2: mid + 5, y1: y(e.upper), y2: y(e.upper), class: kind }));
          svg.append(el('line', { x1: mid - 5, x2: mid + 5, y1: y(e.lower), y2: y(e.lower), class: kind }));
        }
      }
      x += BAR + GAP;
    }
    if (columns.length === 0) x += BAR + GAP;
    const name = dataset.datasetName.length > 18 ? `${dataset.datasetName.slice(0, 17)}…` : dataset.datasetName;
    svg.append(el('text', { x: (start + x - GAP) / 2, y: TOP + HEIGHT + 18, class: 'axis', 'text-anchor': 'middle' }, name));
    x += GROUP_GAP;
  });
  return svg;
}
