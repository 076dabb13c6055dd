// Two takers of one stale part lock (src/api/partLock.ts), in two processes (two VS Code windows) and within one: in
// no round may both hold it, for both would then write one part file. Each round plants a stale lock again (its
// process gone, or its heartbeat stopped), both are told to take it at once, and both keep what they took until both
// have answered. Before the takeover was made atomic, 52 to 56 rounds of 200 doubled across processes here and 11 to
// 15 within one (102 and 4 in the attack of issue 26, finding 4); none since.
import { strict as assert } from 'node:assert';
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { promises as fsp, writeFileSync, utimesSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LOCK_STALE_MS, PartFileBusyError, lockPartFile, type PartLock } from '../../src/api/partLock';
import { tempDir } from './helpers';
import type { RacerCommand, RacerReport } from './lockRacer';

const ROUNDS = 200;

/** The id of a process that has ended (spawned and waited for). */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

/** A stale lock: on even rounds its process is gone, on odd ones its process runs (this one) but its heartbeat stopped. */
function plantStale(part: string, round: number, gone: number): void {
  const lock = `${part}.lock`;
  writeFileSync(lock, JSON.stringify({ pid: round % 2 === 0 ? gone : process.pid, host: os.hostname(), token: `stale-${round}` }));
  if (round % 2 === 1) {
    const old = new Date(Date.now() - LOCK_STALE_MS - 5_000);
    utimesSync(lock, old, old);
  }
}

/** A racer child and the reports it sent, one answer per command. */
class Racer {
  private readonly child: ChildProcess;
  private readonly reports: RacerReport[] = [];
  private waiting: ((r: RacerReport) => void) | undefined;
  private failure: Error | undefined;

  constructor() {
    this.child = fork(path.join(__dirname, 'lockRacer.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (r: RacerReport) => {
      if (this.waiting) {
        const w = this.waiting;
        this.waiting = undefined;
        w(r);
      } else this.reports.push(r);
    });
    this.child.on('exit', (code) => {
      this.failure = new Error(`the racer ended (${code})`);
    });
  }

  next(): Promise<RacerReport> {
    const r = this.reports.shift();
    if (r) return Promise.resolve(r);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  send(command: RacerCommand): void {
    this.child.send(command);
  }

  async ask(command: RacerCommand): Promise<RacerReport> {
    this.send(command);
    const r = await this.next();
    if ('error' in r) throw new Error(`racer: ${r.error}`);
    return r;
  }

  stop(): void {
    this.child.disconnect();
  }
}

describe('part lock: two takers of one stale lock never both hold it', function () {
  this.timeout(60_000);
  const tmp = tempDir('hr-lockrace-');

  it(`two processes (two windows) racing ${ROUNDS} times: exactly one holds it each round`, async () => {
    const part = path.join(tmp.dir, 'raced.part');
    const gone = endedPid();
    const racers = [new Racer(), new Racer()];
    try {
      await Promise.all(racers.map((r) => r.next())); // each says it is ready
      let doubled = 0;
      let none = 0;
      for (let round = 0; round < ROUNDS; round++) {
        plantStale(part, round, gone);
        // Both are told before either answer is awaited: the barrier.
        racers.forEach((r) => r.send({ go: part }));
        const took = await Promise.all(
          racers.map(async (r) => {
            const report = await r.next();
            if ('error' in report) throw new Error(`racer: ${report.error}`);
            return 'held' in report && report.held;
          }),
        );
        const holders = took.filter(Boolean).length;
        if (holders > 1) doubled++;
        if (holders === 0) none++;
        await Promise.all(racers.map((r) => r.ask({ release: true })));
        await fsp.rm(`${part}.lock`, { force: true });
      }
      assert.equal(doubled, 0, `${doubled} of ${ROUNDS} rounds had two holders`);
      assert.equal(none, 0, `${none} of ${ROUNDS} rounds left the stale lock to no one`);
      assert.deepEqual(await fsp.readdir(tmp.dir), [], 'a lock or a takeover file was left behind');
    } finally {
      racers.forEach((r) => r.stop());
    }
  });

  it(`two downloads of one process racing ${ROUNDS} times: exactly one holds it each round`, async () => {
    const part = path.join(tmp.dir, 'raced.part');
    const gone = endedPid();
    let doubled = 0;
    let none = 0;
    for (let round = 0; round < ROUNDS; round++) {
      plantStale(part, round, gone);
      const outcomes = await Promise.allSettled([lockPartFile(part), lockPartFile(part)]);
      const held: PartLock[] = [];
      for (const o of outcomes) {
        if (o.status === 'fulfilled') held.push(o.value);
        else if (!(o.reason instanceof PartFileBusyError)) throw o.reason;
      }
      if (held.length > 1) doubled++;
      if (held.length === 0) none++;
      await Promise.all(held.map((l) => l.release()));
      await fsp.rm(`${part}.lock`, { force: true });
    }
    assert.equal(doubled, 0, `${doubled} of ${ROUNDS} rounds had two holders`);
    assert.equal(none, 0, `${none} of ${ROUNDS} rounds left the stale lock to no one`);
    assert.deepEqual(await fsp.readdir(tmp.dir), [], 'a lock or a takeover file was left behind');
  });
});
