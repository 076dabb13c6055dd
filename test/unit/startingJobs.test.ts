// One start of a paid job at a time per service, key and model (src/jobs/startingJobs.ts): two takes at once in one
// window, or in two windows sharing the global storage folder, give one hold; the other is told who holds it (where,
// since when, how far its upload is); a hold is free again once released, after a failure too; a lock left by a
// window that is gone, or whose heartbeat stopped, is taken over; other models, datasets and keys are not held.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { LOCK_STALE_MS } from '../../src/api/partLock';
import { StartingJobs, underWayEnglish, type StartKey } from '../../src/jobs/startingJobs';
import { tempDir } from './helpers';

const SCOPE = 'https://service.example/#0123456789abcdef';
const FINETUNE: StartKey = { kind: 'finetune', scope: SCOPE, modelName: 'my-model' };

describe('starting jobs: one start per service, key and model', () => {
  const tmp = tempDir('hr-starting-');
  const folder = () => path.join(tmp.dir, 'starting-jobs');

  it('two takes at once in one window: one hold, the other names it (in this window, since when, upload share)', async () => {
    const starting = new StartingJobs(folder(), () => undefined, { now: () => new Date(2026, 10, 28, 16, 2).getTime() });
    const [a, b] = await Promise.all([starting.take(FINETUNE), starting.take(FINETUNE)]);
    assert.ok('hold' in a, 'the first take did not hold');
    assert.ok('underWay' in b, 'the second take held too');
    assert.deepEqual(b.underWay, {
      key: FINETUNE,
      since: new Date(2026, 10, 28, 16, 2).getTime(),
      here: true,
      percent: undefined,
      face: 'window',
    });
    a.hold.progress(40, 100);
    const c = await starting.take(FINETUNE);
    assert.ok('underWay' in c);
    assert.equal(underWayEnglish(c.underWay), "'my-model' is already being started in this window (upload 40 %, since 16:02).");
    await a.hold.release();
    const d = await starting.take(FINETUNE);
    assert.ok('hold' in d, 'not free again after its release');
    await d.hold.release();
    assert.deepEqual(await fsp.readdir(folder()), [], 'a lock was left behind');
  });

  it('two windows sharing the folder, taking at once: one hold; the other says another window, since when', async () => {
    for (let round = 0; round < 20; round++) {
      const one = new StartingJobs(folder());
      const two = new StartingJobs(folder());
      const results = await Promise.all([one.take(FINETUNE), two.take(FINETUNE)]);
      const holds = results.filter((r) => 'hold' in r);
      assert.equal(holds.length, 1, `round ${round}: ${holds.length} holds`);
      const other = results.find((r) => 'underWay' in r);
      assert.ok(other && 'underWay' in other);
      assert.equal(other.underWay.here, false);
      assert.equal(typeof other.underWay.since, 'number');
      assert.match(underWayEnglish(other.underWay), /^'my-model' is already being started in another window \(since \d\d:\d\d\)\.$/);
      for (const h of holds) if ('hold' in h) await h.hold.release();
    }
  });

  it('says where the start under way really is: a command-line run, an MCP server, this server, a window', async () => {
    const cli = new StartingJobs(folder(), () => undefined, { face: 'cli' });
    const mcp = new StartingJobs(folder(), () => undefined, { face: 'mcp' });
    const window = new StartingJobs(folder());
    const held = await cli.take(FINETUNE);
    assert.ok('hold' in held);
    for (const [taker, words] of [
      [mcp, /^'my-model' is already being started by another hosted-reasoning command-line run \(since \d\d:\d\d\)\.$/],
      [window, /^'my-model' is already being started by another hosted-reasoning command-line run /],
    ] as const) {
      const refused = await taker.take(FINETUNE);
      assert.ok('underWay' in refused);
      assert.match(underWayEnglish(refused.underWay), words);
    }
    await held.hold.release();
    const served = await mcp.take(FINETUNE);
    assert.ok('hold' in served);
    const fromCli = await cli.take(FINETUNE);
    assert.ok('underWay' in fromCli);
    assert.match(underWayEnglish(fromCli.underWay), /^'my-model' is already being started by a hosted-reasoning MCP server \(since/);
    const again = await mcp.take(FINETUNE);
    assert.ok('underWay' in again);
    assert.match(underWayEnglish(again.underWay), /^'my-model' is already being started by this MCP server \(since/);
    await served.hold.release();
    const windowHeld = await window.take(FINETUNE);
    assert.ok('hold' in windowHeld);
    const fromMcp = await mcp.take(FINETUNE);
    assert.ok('underWay' in fromMcp);
    assert.match(underWayEnglish(fromMcp.underWay), /^'my-model' is already being started in another window \(since/);
    await windowHeld.hold.release();
  });

  it('a start that failed releases its hold: the next start holds', async () => {
    const starting = new StartingJobs(folder());
    const start = async () => {
      const taken = await starting.take(FINETUNE);
      if ('underWay' in taken) return 'refused';
      try {
        throw new Error('upload failed');
      } finally {
        await taken.hold.release();
      }
    };
    await assert.rejects(start(), /upload failed/);
    const again = await starting.take(FINETUNE);
    assert.ok('hold' in again, 'held after a failed start');
    await again.hold.release();
  });

  it('holds each model, dataset and key apart', async () => {
    const starting = new StartingJobs(folder());
    const keys: StartKey[] = [
      FINETUNE,
      { ...FINETUNE, modelName: 'other-model' },
      { ...FINETUNE, scope: 'https://service.example/#fedcba9876543210' },
      { kind: 'evaluation', scope: SCOPE, modelName: 'my-model', datasetName: 'demo-qa' },
      { kind: 'evaluation', scope: SCOPE, modelName: 'my-model', datasetName: 'arith-small' },
    ];
    const taken = await Promise.all(keys.map((k) => starting.take(k)));
    assert.ok(
      taken.every((t) => 'hold' in t),
      'one start held another',
    );
    for (const t of taken) if ('hold' in t) await t.hold.release();
  });

  it('takes over the lock of a window whose process is gone, and one whose heartbeat stopped', async () => {
    const gone = new StartingJobs(folder(), () => undefined, { isAlive: () => false });
    const crashed = new StartingJobs(folder());
    const held = await crashed.take(FINETUNE);
    assert.ok('hold' in held);
    // The crashed window never releases: its process is judged gone.
    const taken = await gone.take(FINETUNE);
    assert.ok('hold' in taken, 'a gone window’s lock was obeyed');
    await taken.hold.release();

    const stopped = await crashed.take({ ...FINETUNE, modelName: 'stopped' });
    assert.ok('hold' in stopped);
    const later = new StartingJobs(folder(), () => undefined, { now: () => Date.now() + LOCK_STALE_MS + 60_000 });
    const after = await later.take({ ...FINETUNE, modelName: 'stopped' });
    assert.ok('hold' in after, 'a lock whose heartbeat stopped was obeyed');
    await after.hold.release();
  });

  it('a window that ended without releasing leaves a lock the next window takes over; while it runs, it holds', async function () {
    this.timeout(20_000);
    const module = path.resolve(__dirname, '../../src/jobs/startingJobs.js');
    const script = `
      const { StartingJobs } = require(${JSON.stringify(module)});
      new StartingJobs(${JSON.stringify(folder())}).take(${JSON.stringify(FINETUNE)}).then((t) => {
        process.stdout.write('hold' in t ? 'held\\n' : 'refused\\n');
        process.stdin.once('data', () => process.exit(0)); // ends without releasing, as a crashed window
      });`;
    const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      const said = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())));
      assert.equal(said, 'held');
      const here = new StartingJobs(folder());
      const refused = await here.take(FINETUNE);
      assert.ok('underWay' in refused, 'held while the other window runs');
      assert.equal(refused.underWay.here, false);
      child.stdin.write('end\n');
      await exited;
      const taken = await here.take(FINETUNE);
      assert.ok('hold' in taken, 'the ended window’s lock was obeyed');
      await taken.hold.release();
    } finally {
      child.kill();
    }
  });

  it('a folder that cannot be used holds the start in this window only, and says why in the log', async () => {
    await fsp.writeFile(path.join(tmp.dir, 'a-file'), '');
    const logged: string[] = [];
    const starting = new StartingJobs(path.join(tmp.dir, 'a-file', 'starting-jobs'), (m) => logged.push(m));
    const a = await starting.take(FINETUNE);
    assert.ok('hold' in a, 'refused because of the folder');
    const b = await starting.take(FINETUNE);
    assert.ok('underWay' in b && b.underWay.here, 'not held in this window');
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /held in this window only/);
    await a.hold.release();
  });
});
