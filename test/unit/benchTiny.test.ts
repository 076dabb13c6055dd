// Every benchmark figure runs tiny (BENCH_TINY=1) inside `npm test`: its real imports and harness, one smallest
// iteration, in a process of its own as `npm run bench` runs it, judged only by finishing and producing its rows and
// section. Nothing is measured or judged here (timings live in test/bench/REPORT.md); this is so that a moved file or
// a changed API breaks a benchmark where someone sees it. Figures that measure in VS Code check their harness without
// it (test/bench/figureList.ts says why).
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FIGURES } from '../bench/figureList';
import type { FigureResult } from '../bench/report';

const benchOut = path.join(__dirname, '..', 'bench');
const figureSources = path.join(__dirname, '..', '..', '..', 'test', 'bench', 'figures');

/** node out/test/bench/figure.js <name> <result.json> with BENCH_TINY=1: its exit code, stderr's tail and its result. */
function runTiny(name: string, out: string): Promise<{ code: number | null; tail: string; result?: FigureResult }> {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_TINY: '1' };
  delete env.BENCH_QUICK;
  delete env.BENCH_ONLY;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--expose-gc', path.join(benchOut, 'figure.js'), name, out], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let tail = '';
    child.stderr.on('data', (c: Buffer) => (tail = (tail + c.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code) => {
      const result = code === 0 && fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as FigureResult) : undefined;
      resolve({ code, tail, result });
    });
  });
}

describe('benchmark figures, tiny (BENCH_TINY=1)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-bench-tiny-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs every figure in test/bench/figures/ (a new figure is listed in test/bench/figureList.ts)', () => {
    const files = fs
      .readdirSync(figureSources)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => f.slice(0, -'.ts'.length))
      .sort();
    assert.deepEqual([...FIGURES.map((f) => f.name)].sort(), files);
    assert.equal(new Set(FIGURES.map((f) => f.number)).size, FIGURES.length, 'two figures share a number');
  });

  for (const figure of FIGURES) {
    const how = figure.vscode ? 'its harness checked without VS Code' : 'one smallest iteration';
    it(`figure ${figure.number} (${figure.name}) runs tiny, ${how}, and reports its rows`, async function () {
      this.timeout(180_000); // a guard against a hung child, not a measure: the slowest takes seconds
      const { code, tail, result } = await runTiny(figure.name, path.join(dir, `${figure.name}.json`));
      assert.equal(code, 0, `figure.js ${figure.name} failed:\n${tail}`);
      assert.ok(result, `figure.js ${figure.name} wrote no result`);
      assert.ok(result.rows.length > 0, 'no rows');
      for (const row of result.rows) {
        assert.ok(row.figure.startsWith(`${figure.number}. `), `a row of another figure: ${row.figure}`);
        assert.equal(row.met, undefined, `a tiny run judged a goal: ${row.figure}`);
      }
      assert.ok(result.section.startsWith(`## ${figure.number}. ${figure.title}\n`), `section: ${result.section.slice(0, 80)}`);
    });
  }
});
