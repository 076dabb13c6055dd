// The accuracy chart: inline SVG built from numbers (no library), one group of bars per dataset, each bar the newest
// evaluation of a model with its 95 % interval as a whisker. Colours come from classes in media/report.css that read
// VS Code's theme variables; the policy forbids inline styles. Screen readers get the role="img" summary, and the same
// numbers in the table below it.
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
      const bar = el('rect', { x, y: y(e.accuracy), width: BAR, height: TOP + HEIGHT - y(e.accuracy), class: `bar ${column.role}` });
      bar.append(el('title', {}, `${column.name}: ${percent(e.accuracy)}`));
      svg.append(bar);
      if (e.lower !== undefined && e.upper !== undefined) {
        const mid = x + BAR / 2;
        svg.append(el('line', { x1: mid, x2: mid, y1: y(e.upper), y2: y(e.lower), class: 'whisker' }));
        svg.append(el('line', { x1: mid - 5, x2: mid + 5, y1: y(e.upper), y2: y(e.upper), class: 'whisker' }));
        svg.append(el('line', { x1: mid - 5, x2: mid + 5, y1: y(e.lower), y2: y(e.lower), class: 'whisker' }));
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
