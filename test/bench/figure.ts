// Runs one figure in a fresh process (so no figure inherits another's heap, JIT state or open sockets) and writes
// its FigureResult as JSON: node out/test/bench/figure.js <name> <result.json>
//   BENCH_QUICK=1  small sizes and few runs, to debug the harness
//   BENCH_TINY=1   the smallest sizes, one run, no warm-up: proves the figure still runs (inside `npm test`), measures
//                  nothing; figures measured in VS Code check their harness without it (see figureList.ts)
import { writeFileSync } from 'node:fs';
import type { FigureResult, Row } from './report';

export type FigureSize = 'full' | 'quick' | 'tiny';

export interface FigureOptions {
  size: FigureSize;
}

/** The value for this run's size. */
export function bySize<T>(options: FigureOptions, sizes: Record<FigureSize, T>): T {
  return sizes[options.size];
}

/** The row of a figure measured in VS Code when a tiny run checked its harness without it. */
export function notMeasuredTiny(figure: string, checked: string, goal: string): Row {
  return {
    figure,
    subject: 'not measured (tiny run)',
    reference: '—',
    ratio: '—',
    spread: `checked without VS Code: ${checked}`,
    goal,
    met: undefined,
  };
}

type FigureModule = { run(options: FigureOptions): Promise<FigureResult> };

export function sizeFromEnv(env: NodeJS.ProcessEnv = process.env): FigureSize {
  return env.BENCH_TINY === '1' ? 'tiny' : env.BENCH_QUICK === '1' ? 'quick' : 'full';
}

async function main(): Promise<void> {
  const [name, out] = process.argv.slice(2);
  if (!name || !out || !/^[a-zA-Z]+$/.test(name)) throw new Error('usage: figure.js <name> <result.json>');
  const mod = (await import(`./figures/${name}.js`)) as FigureModule;
  const size = sizeFromEnv();
  const result = await mod.run({ size });
  // A tiny run's numbers say nothing (one run, smallest sizes): no goal is judged on them.
  if (size === 'tiny') result.rows = result.rows.map((row) => ({ ...row, met: undefined }));
  writeFileSync(out, JSON.stringify(result));
}

if (require.main === module) {
  main().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      process.exit(1);
    },
  );
}
