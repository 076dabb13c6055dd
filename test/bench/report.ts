// What each figure hands back to the runner, which writes test/bench/REPORT.md.

export interface Row {
  figure: string;
  subject: string;
  reference: string;
  ratio: string;
  spread: string;
  goal: string;
  /** undefined: not measured (or not judged). */
  met: boolean | undefined;
}

export interface FigureResult {
  rows: Row[];
  /** Markdown section: method, details, and for a miss the cause and the measurement that shows it. */
  section: string;
}

export function yesNo(met: boolean | undefined): string {
  return met === undefined ? '—' : met ? 'yes' : '**no**';
}

export function table(rows: Row[]): string {
  const head = '| Figure | Subject (median) | Reference (median) | Ratio | Spread | Goal | Met? |\n|---|---|---|---|---|---|---|';
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [
    head,
    ...rows.map((r) => `| ${[r.figure, r.subject, r.reference, r.ratio, r.spread, r.goal, yesNo(r.met)].map(esc).join(' | ')} |`),
  ].join('\n');
}

/** A small markdown table of per-run numbers. */
export function runsTable(headers: string[], rows: (string | number)[][]): string {
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}
