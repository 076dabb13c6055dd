// Runs one figure in a fresh process (so no figure inherits another's heap, JIT state or open sockets) and writes
// its FigureResult as JSON: node out/test/bench/figure.js <name> <result.json>
import { writeFileSync } from 'node:fs';
import type { FigureResult } from './report';

export interface FigureOptions {
  /** Small sizes and few runs, to debug the harness. */
  quick: boolean;
}

type FigureModule = { run(options: FigureOptions): Promise<FigureResult> };

async function main(): Promise<void> {
  const [name, out] = process.argv.slice(2);
  if (!name || !out || !/^[a-zA-Z]+$/.test(name)) throw new Error('usage: figure.js <name> <result.json>');
  const mod = (await import(`./figures/${name}.js`)) as FigureModule;
  const result = await mod.run({ quick: process.env.BENCH_QUICK === '1' });
  writeFileSync(out, JSON.stringify(result));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
