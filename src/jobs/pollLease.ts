// Which window polls which job, and which window tells the user it ended. Windows share globalState (so they all see
// every job) but no memory, so they agree through files in the extension's globalStorage folder. Node fs only: the
// poller's tests drive two instances over one temp folder without VS Code.
//
// A lease is a file `<hash>.<generation>.lease` holding `{owner, expiresAt}`; the highest generation present is the
// lease. The holder renews it by rewriting its own file (temp file + rename, so a reader never sees half of it).
// Taking it over when it has expired (its window crashed or closed) means creating generation + 1 with the exclusive
// flag 'wx': among windows that saw the same stale lease exactly one create succeeds. The plain "delete, then
// create" would let two takers both win: A deletes and re-creates, B (which read the stale content before) deletes
// A's fresh file and creates its own. Because the current generation is never deleted (release marks it expired),
// a name is never reused while it could be contended; older generations are removed by the winner.
//
// A "notified" marker `<hash>.notified` is created with 'wx' by the window that wants to announce a job's end: only
// the window whose create succeeds shows the notification.
//
// Holds are long enough to cover a status request with all its retries, so a live holder is never overtaken while
// it waits for an answer; the price is that after a crash another window resumes a job only when the hold expires.
// A window that closes normally releases its leases at once.
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export interface PollLease {
  /**
   * Whether this window may poll the job `id` now. Takes a free or expired lease, keeps (and when less than half of
   * `holdMs` remains, renews to `holdMs`) its own, refuses one another window holds.
   */
  acquire(id: string, holdMs: number): Promise<boolean>;
  /** Gives the lease up so another window can take it at once (this window closes or stops following the scope). */
  release(id: string): Promise<void>;
  /**
   * The job ended or was removed: stop holding the lease but leave it to expire. Another window may not have seen the
   * end yet (globalState reaches it later); a freed lease would let it poll the job again, and writing its stale copy
   * of the list would bring a removed job back.
   */
  retire(id: string): void;
  /** True for exactly one caller per job across all windows: that one announces the job's end. */
  claimNotice(id: string): Promise<boolean>;
}

interface LeaseBody {
  owner: string;
  expiresAt: number;
}

/** A lease file that cannot be read yet is being written (create, then write) for this long. */
const BEING_WRITTEN_MS = 10_000;
/** Files untouched this long belong to jobs long finished or to windows long gone. */
const SWEEP_AGE_MS = 24 * 60 * 60 * 1000;
const NOTICE_SWEEP_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export class FileLeases implements PollLease {
  /** The generation and expiry of each lease this window holds, so a renewal needs no file access most of the time. */
  private readonly mine = new Map<string, { file: string; gen: number; expiresAt: number }>();
  private ready: Promise<void> | undefined;

  /**
   * @param dir   folder shared by all windows (under `context.globalStorageUri`); created on first use.
   * @param owner this window's identity; random per window session by default.
   * @param now   clock for expiries (the poller's, so tests can move time).
   */
  constructor(
    readonly dir: string,
    readonly owner: string = randomUUID(),
    private readonly now: () => number = Date.now,
  ) {}

  async acquire(id: string, holdMs: number): Promise<boolean> {
    const now = this.now();
    const held = this.mine.get(id);
    // Nobody takes over a lease before it expires, so while ours has time left there is nothing to check.
    if (held && held.expiresAt - now >= holdMs / 2) return true;
    await this.ensureDir();
    const file = fileBase(id);
    const gens = await this.generations(file);
    const top = gens[0];
    const expiresAt = now + holdMs;
    if (top === undefined) return this.create(id, file, 0, expiresAt);
    // Renewed in place only while still valid: once expired, another window may be taking it over right now, and
    // the exclusive create below is the only step where that contest is decided fairly.
    if (held && held.gen === top && held.expiresAt > now) {
      await this.writeBody(file, top, { owner: this.owner, expiresAt });
      held.expiresAt = expiresAt;
      return true;
    }
    // Ours was overtaken (we stalled past its expiry), or we never had it.
    this.mine.delete(id);
    const body = await this.readBody(file, top);
    if (body === 'being-written') return false;
    if (body && body.owner === this.owner && body.expiresAt > now) {
      await this.writeBody(file, top, { owner: this.owner, expiresAt });
      this.mine.set(id, { file, gen: top, expiresAt });
      return true;
    }
    if (body && body.expiresAt > now) return false;
    return this.create(id, file, top + 1, expiresAt);
  }

  async release(id: string): Promise<void> {
    const held = this.mine.get(id);
    if (!held) return;
    this.mine.delete(id);
    // Marked expired rather than deleted: deleting the current generation would let its name be contended again.
    await this.writeBody(held.file, held.gen, { owner: this.owner, expiresAt: 0 }).catch(() => undefined);
  }

  retire(id: string): void {
    this.mine.delete(id);
  }

  /** For a window that is closing: dispose() cannot wait for promises. */
  releaseAllSync(): void {
    for (const held of this.mine.values()) {
      try {
        const target = this.leasePath(held.file, held.gen);
        const tmp = `${target}.${this.owner}.tmp`;
        writeFileSync(tmp, JSON.stringify({ owner: this.owner, expiresAt: 0 }));
        renameSync(tmp, target);
      } catch {
        // The hold expires by itself; another window then takes over.
      }
    }
    this.mine.clear();
  }

  async claimNotice(id: string): Promise<boolean> {
    await this.ensureDir();
    try {
      const handle = await fs.open(path.join(this.dir, `${fileBase(id)}.notified`), 'wx');
      await handle.writeFile(JSON.stringify({ owner: this.owner, at: this.now() }));
      await handle.close();
      return true;
    } catch (e) {
      if (errorCode(e) === 'EEXIST') return false;
      throw e;
    }
  }

  /** The ids of the leases this window holds (for tests and diagnostics). */
  held(): string[] {
    return [...this.mine.keys()];
  }

  private async create(id: string, file: string, gen: number, expiresAt: number): Promise<boolean> {
    const target = this.leasePath(file, gen);
    try {
      const handle = await fs.open(target, 'wx');
      try {
        await handle.writeFile(JSON.stringify({ owner: this.owner, expiresAt } satisfies LeaseBody));
      } finally {
        await handle.close();
      }
    } catch (e) {
      if (errorCode(e) === 'EEXIST') return false;
      throw e;
    }
    // A taker working from an older listing can create a generation below the current one (its name was freed by
    // cleanup): the highest generation is the lease, so such a file loses and is removed.
    const gens = await this.generations(file);
    if (gens[0] !== gen) {
      await fs.rm(target, { force: true }).catch(() => undefined);
      return false;
    }
    this.mine.set(id, { file, gen, expiresAt });
    for (const old of gens.slice(1)) await fs.rm(this.leasePath(file, old), { force: true }).catch(() => undefined);
    return true;
  }

  /** Generations present for one lease, highest first. */
  private async generations(file: string): Promise<number[]> {
    const prefix = `${file}.`;
    const gens: number[] = [];
    for (const name of await fs.readdir(this.dir)) {
      if (!name.startsWith(prefix) || !name.endsWith('.lease')) continue;
      const gen = Number(name.slice(prefix.length, -'.lease'.length));
      if (Number.isSafeInteger(gen) && gen >= 0) gens.push(gen);
    }
    return gens.sort((a, b) => b - a);
  }

  private async readBody(file: string, gen: number): Promise<LeaseBody | 'being-written' | undefined> {
    const target = this.leasePath(file, gen);
    try {
      const parsed: unknown = JSON.parse(await fs.readFile(target, 'utf8'));
      if (isLeaseBody(parsed)) return parsed;
    } catch (e) {
      if (errorCode(e) === 'ENOENT') return undefined;
    }
    // Empty or unreadable: a fresh file whose creator has not written it yet is live; an old one is garbage.
    try {
      const { mtimeMs } = await fs.stat(target);
      return Date.now() - mtimeMs < BEING_WRITTEN_MS ? 'being-written' : undefined;
    } catch {
      return undefined;
    }
  }

  private async writeBody(file: string, gen: number, body: LeaseBody): Promise<void> {
    const target = this.leasePath(file, gen);
    const tmp = `${target}.${this.owner}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(body));
    await fs.rename(tmp, target);
  }

  private leasePath(file: string, gen: number): string {
    return path.join(this.dir, `${file}.${gen}.lease`);
  }

  private ensureDir(): Promise<void> {
    this.ready ??= fs.mkdir(this.dir, { recursive: true }).then(
      () => void this.sweep(),
      (e: unknown) => {
        this.ready = undefined; // try again next time
        throw e;
      },
    );
    return this.ready;
  }

  /** Removes leftovers of long-finished jobs and closed windows; once per window, after the folder exists. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    try {
      for (const name of await fs.readdir(this.dir)) {
        const maxAge = name.endsWith('.notified') ? NOTICE_SWEEP_AGE_MS : SWEEP_AGE_MS;
        const full = path.join(this.dir, name);
        const { mtimeMs } = await fs.stat(full).catch(() => ({ mtimeMs: now }));
        if (now - mtimeMs > maxAge) await fs.rm(full, { force: true }).catch(() => undefined);
      }
    } catch {
      // Housekeeping only.
    }
  }
}

/** File names from a hash: job ids and scopes are the service's strings and may hold anything. */
function fileBase(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 40);
}

function isLeaseBody(v: unknown): v is LeaseBody {
  return (
    typeof v === 'object' && v !== null &&
    typeof (v as LeaseBody).owner === 'string' &&
    typeof (v as LeaseBody).expiresAt === 'number'
  );
}

function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string'
    ? (e as { code: string }).code
    : undefined;
}
