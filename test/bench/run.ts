// `npm run bench`: runs every figure in a fresh process each, then writes test/bench/REPORT.md (machine, date, load,
// one table, a section of per-run tables per figure) and prints it. Method and explanations: PERFORMANCE.md. Not part of
// `npm test`; it takes several minutes.
//   BENCH_ONLY=stream,upload  run some figures only (the report then goes to test-output/bench/REPORT.md)
//   BENCH_QUICK=1             small sizes and few runs, to debug the harness (report in test-output/ too)
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { load, machine } from './machine';
import { table, type FigureResult, type Row } from './report';

interface Figure {
  name: string;
  number: number;
  title: string;
}

/** In the order they run: cheap and CPU-bound first, the long idle polling window and the VS Code host last. */
const FIGURES: Figure[] = [
  { name: 'largeList', number: 7, title: 'Large lists' },
  { name: 'stream', number: 2, title: 'Stream decoding' },
  { name: 'upload', number: 4, title: 'Upload' },
  { name: 'download', number: 5, title: 'Download' },
  { name: 'polling', number: 6, title: 'Polling' },
  { name: 'connections', number: 10, title: 'Connection reuse' },
  { name: 'local', number: 8, title: 'Local runtime' },
  { name: 'activation', number: 1, title: 'Activation' },
  { name: 'latency', number: 3, title: 'Token latency in the playground' },
  { name: 'chatLatency', number: 9, title: 'First token through vscode.lm' },
  { name: 'reasoning', number: 11, title: 'Reasoning latency in the playground' },
  { name: 'preflight', number: 12, title: 'Pre-flight read of finetune sources' },
];

const repoRoot = path.resolve(__dirname, '..', '..', '..');

interface Outcome {
  figure: Figure;
  result?: FigureResult;
  error?: string;
  seconds: number;
  loadBefore: string;
  loadAfter: string;
}

function runFigure(figure: Figure): Promise<Outcome> {
  const out = path.join(os.tmpdir(), `hr-bench-${figure.name}-${process.pid}.json`);
  const loadBefore = load();
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--expose-gc', path.join(__dirname, 'figure.js'), figure.name, out], {
      stdio: ['ignore', 'inherit', 'pipe'],
    });
    let tail = '';
    child.stderr.on('data', (c: Buffer) => {
      process.stderr.write(c);
      tail = (tail + c.toString()).slice(-3000);
    });
    child.once('close', (code) => {
      const outcome: Outcome = { figure, seconds: (Date.now() - started) / 1000, loadBefore, loadAfter: load() };
      if (code === 0 && fs.existsSync(out)) outcome.result = JSON.parse(fs.readFileSync(out, 'utf8')) as FigureResult;
      else outcome.error = `exit ${code}: ${tail.trim().split('\n').slice(-8).join('\n')}`;
      fs.rmSync(out, { force: true });
      resolve(outcome);
    });
  });
}

function uptimeLine(): string {
  return `load average ${load()} (1, 5, 15 min) on ${os.cpus().length} cores`;
}

async function main(): Promise<void> {
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const quick = process.env.BENCH_QUICK === '1';
  const figures = only.length ? FIGURES.filter((f) => only.includes(f.name)) : FIGURES;
  if (only.length && figures.length !== only.length) {
    throw new Error(`unknown figure in BENCH_ONLY; known: ${FIGURES.map((f) => f.name).join(', ')}`);
  }
  const m = machine();
  const before = uptimeLine();
  const outcomes: Outcome[] = [];
  for (const f of figures) {
    console.log(`[bench] ${f.number}. ${f.title} (${f.name}) — load ${load()}`);
    const o = await runFigure(f);
    console.log(`[bench]   ${o.error ? 'FAILED' : 'done'} in ${o.seconds.toFixed(0)} s`);
    outcomes.push(o);
  }
  const after = uptimeLine();

  const byNumber = [...outcomes].sort((a, b) => a.figure.number - b.figure.number);
  const rows: Row[] = [];
  for (const o of byNumber) {
    if (o.result) rows.push(...o.result.rows);
    else {
      rows.push({
        figure: `${o.figure.number}. ${o.figure.title}`,
        subject: 'failed',
        reference: '—',
        ratio: '—',
        spread: '—',
        goal: '—',
        met: undefined,
      });
    }
  }
  const sections = byNumber.map((o) => {
    const timing = `_(ran ${o.seconds.toFixed(0)} s; load average ${o.loadBefore} before, ${o.loadAfter} after)_`;
    if (o.result) return `${o.result.section}\n\n${timing}`;
    return `## ${o.figure.number}. ${o.figure.title}\n\nThe figure failed:\n\n\`\`\`\n${o.error ?? ''}\n\`\`\`\n\n${timing}`;
  });
  const report = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (test/bench/run.ts)${quick ? ' with BENCH_QUICK=1 (small sizes: not the real figures)' : ''}` +
      `${only.length ? `, a partial run: BENCH_ONLY=${only.join(',')}` : ''}.`,
    'Every figure is the median of several runs, with its spread, and its ratio to a reference measured in the same',
    'run, interleaved (reference, subject, reference, subject...) so that drift hits both. Timings are never asserted',
    'in tests; this report is where they live. How each is measured and why it comes out as it does: PERFORMANCE.md.',
    '',
    `- Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM; ${m.os}; Node ${m.node}`,
    `- Date: ${m.date}`,
    `- Load before: ${before}`,
    `- Load after: ${after}`,
    "- The machine is shared: other engineers' test suites (VS Code servers, headless Chromium, mocha) ran during the",
    '  measurement. Each section gives the load average around its figure. Ratios are steadier than absolute numbers.',
    '',
    table(rows),
    '',
    ...sections.flatMap((s) => [s, '']),
  ].join('\n');
  const target = path.join(repoRoot, ...(only.length || quick ? ['test-output', 'bench'] : ['test', 'bench']), 'REPORT.md');
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, report);
  console.log(`\n${report}`);
  console.log(`[bench] report written to ${path.relative(repoRoot, target)}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
  process.exit(1);
});
