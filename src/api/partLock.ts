// One download at a time per part file, across windows. Two downloads of one model into one folder (Download from the
// notification and from the Models view, Resume in two windows) would otherwise write the same part file: one
// truncates or renames it under the other, which then fails with a misleading "no such file" or "0 bytes".
//
// The lock is `<part>.lock`, created exclusively and never through a link, holding who took it (process id, host,
// a random token). Its modification time is refreshed while the download runs, so a lock left by a window that
// crashed, or by a process whose id was since reused, or by another machine on a shared folder, goes stale: a lock
// whose process is gone (same host) or whose heartbeat is outside its window is taken over. The window goes both ways:
// a date more than LOCK_STALE_MS ahead (a clock far ahead on a shared folder, a planted file) says nothing of a
// heartbeat either, and would otherwise hold for ever. Within one window the download command joins the running
// download instead of asking for the lock (features/download/downloadCommand.ts).
//
// Taking over a stale lock is the race: "judge it stale, remove it, create ours" let two takers that judged the same
// stale lock both hold it (the second removed the first one's new lock: 52 to 56 rounds of 200 across two processes,
// 11 to 15 within one, test/unit/partLockRace.test.ts). proper-lockfile does the same (stat, rmdir, mkdir: its open
// issue #121), never finds a date ahead stale and judges no process, so it is not used. Here the name is never removed
// to take it over, and only one taker at a time may replace what it judged:
// - A taker first wins `<lock>.takeover<n>` by exclusive create (the claim). Only its creator ever removes a claim.
// - Holding the claim, it checks that the lock's name still holds the very file it judged (device, inode, times and
//   size: a heartbeat, a release or a takeover changes them), then renames its own lock over it, atomically: the name
//   is never empty, so no plain exclusive create slips in, and the claim is removed.
// - Two takers cannot both pass the check: their claims are exclusive, and one that claims after another's takeover
//   finds the name holding the new lock, not the one it judged, and looks again (it sees a live lock).
// - A claim left by a taker that crashed is judged like a lock (process gone, or dated outside the window); the next
//   taker passes to `takeover<n+1>`. Being never removed, an abandoned claim cannot be claimed again, so two live
//   claims of different numbers are never held at once. It is left in the folder: that needs a crash within the
//   milliseconds of a takeover.
// What no heartbeat lock can rule out is kept: a holder that stops for longer than LOCK_STALE_MS (a suspended
// machine) and goes on afterwards is judged gone meanwhile.
//
// The same lock (lockFile, with its own words) keeps one start of a paid job at a time per service, key and model
// across windows: jobs/startingJobs.ts.
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, type BigIntStats } from 'node:fs';
import * as os from 'node:os';
import { RequestError } from './errors';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** How often a held lock says it is alive, and how long without that makes it stale. */
export const LOCK_HEARTBEAT_MS = 10_000;
export const LOCK_STALE_MS = 60_000;

/** Claims past this many, all abandoned, are planted: the lock is refused rather than looked at for ever. */
const MAX_CLAIMS = 8;

/** Another download is writing this part file now. */
export class PartFileBusyError extends RequestError {
  constructor(
    readonly part: string,
    readonly holder: { pid?: number; host?: string },
  ) {
    const who =
      holder.pid === undefined
        ? 'another download'
        : `another download (process ${holder.pid}${holder.host && holder.host !== os.hostname() ? ` on ${holder.host}` : ''})`;
    super(
      `${part} is being written by ${who}, which holds ${lockPath(part)}: let it finish, or stop it in the window that runs it, then download again.`,
    );
  }
}

export interface FileLock {
  /** Stops the heartbeat and removes the lock, if it is still this one. */
  release(): Promise<void>;
}

export type PartLock = FileLock;

/** Who took a lock, as it wrote it: `since` is when (epoch ms); `face` what took it (a lock's user names its own). */
export interface LockHolder {
  pid?: number;
  host?: string;
  token?: string;
  since?: number;
  face?: string;
}

type Holder = LockHolder;

/** What a lock's user says: who holds it now, and what to do again once its name is cleared. */
export interface LockWords {
  busy(holder: LockHolder): Error;
  /** "download again" */
  again: string;
}

/** What is found at a lock's (or a claim's) name. */
interface Found {
  kind: 'file' | 'folder' | 'other';
  holder: Holder;
  mtimeMs: number;
  /** Which file, as it is now: another file at the name, or this one touched, renamed or written, differs. */
  identity: string;
}

export interface LockOptions {
  /** Whether a process of this host runs (tests replace it). */
  isAlive?: (pid: number) => boolean;
  now?: () => number;
  /** What takes the lock, written into it for a refusal's words (a word: `window`, `cli`, `mcp`). */
  face?: string;
}

const lockPath = (part: string) => `${part}.lock`;

const identityOf = (s: BigIntStats) => `${s.dev}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}:${s.size}`;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readLock(file: string): Promise<Found | undefined> {
  let handle;
  try {
    handle = await fsp.open(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // A link or something else planted under the name (Windows refuses to open a folder): not a lock anyone took.
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR') {
      const stat = await fsp.lstat(file, { bigint: true }).catch(() => undefined);
      if (!stat) return undefined;
      return { kind: stat.isDirectory() ? 'folder' : 'other', holder: {}, mtimeMs: 0, identity: identityOf(stat) };
    }
    throw e;
  }
  try {
    const stat = await handle.stat({ bigint: true });
    const identity = identityOf(stat);
    if (!stat.isFile()) return { kind: stat.isDirectory() ? 'folder' : 'other', holder: {}, mtimeMs: 0, identity };
    let holder: Holder = {};
    if (stat.size <= 4096n) {
      try {
        const o = JSON.parse(await handle.readFile('utf8')) as Record<string, unknown>;
        holder = {
          ...(Number.isSafeInteger(o.pid) && (o.pid as number) > 0 ? { pid: o.pid as number } : {}),
          ...(typeof o.host === 'string' ? { host: o.host.slice(0, 255) } : {}),
          ...(typeof o.token === 'string' ? { token: o.token } : {}),
          ...(typeof o.since === 'string' && Number.isFinite(Date.parse(o.since)) ? { since: Date.parse(o.since) } : {}),
          ...(typeof o.face === 'string' && /^[a-z]{1,16}$/.test(o.face) ? { face: o.face } : {}),
        };
      } catch {
        // Half written (its writer is writing it now, or crashed doing so): judged by its age alone.
      }
    }
    return { kind: 'file', holder, mtimeMs: Number(stat.mtimeMs), identity };
  } finally {
    await handle.close();
  }
}

/**
 * Whether a lock (or a claim) found is no longer anyone's: a planted non-file, a date outside the heartbeat's window
 * (behind: it stopped; ahead: no heartbeat can be read from it), or a process of this host that is gone.
 */
function isStale({ kind, holder, mtimeMs }: Found, isAlive: (pid: number) => boolean, now: () => number): boolean {
  const sameHost = holder.host === undefined || holder.host === os.hostname();
  return kind !== 'file' || Math.abs(now() - mtimeMs) > LOCK_STALE_MS || (sameHost && holder.pid !== undefined && !isAlive(holder.pid));
}

/** A folder is nobody's lock, and may hold someone's files: it is neither removed nor taken as held. */
function refuseFolder(file: string, again: string): RequestError {
  return new RequestError(`${file} is a folder, not a lock: move or remove it, then ${again}.`);
}

/** Creates `file` with `content`, exclusively and never through a link. */
async function createExclusive(file: string, content: string): Promise<void> {
  // Written whole under a name of its own, then linked to the lock's name (a link fails if the name exists): a taker
  // that finds the lock always reads its holder, where a lock created empty and then written showed another taker an
  // empty file for a moment (no "since" to tell the person). Where the file system has no hard links, created in place.
  const draft = `${file}.${randomBytes(6).toString('hex')}.new`;
  await writeExclusive(draft, content);
  try {
    await fsp.link(draft, file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
    await writeExclusive(file, content);
  } finally {
    await fsp.rm(draft, { force: true });
  }
}

async function writeExclusive(file: string, content: string): Promise<void> {
  const handle = await fsp.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

const exists = (e: unknown) => (e as NodeJS.ErrnoException).code === 'EEXIST';

/**
 * Replaces the stale lock `judged` with ours, if no other taker does (the header says why this is race-free). True
 * when ours is in place; false when the name no longer holds what was judged (look again); a PartFileBusyError when
 * another taker is taking it over now.
 */
async function takeOver(
  file: string,
  words: LockWords,
  judged: Found,
  content: string,
  token: string,
  judge: (f: Found) => boolean,
): Promise<boolean> {
  for (let n = 0; n < MAX_CLAIMS; n++) {
    const claim = `${file}.takeover${n}`;
    try {
      await createExclusive(claim, content);
    } catch (e) {
      if (!exists(e)) throw e;
      const other = await readLock(claim);
      if (!other) return false; // that taker has just finished: the lock is another now
      if (!judge(other)) throw words.busy(other.holder);
      continue; // abandoned by a taker that crashed: never removed, so never claimed again
    }
    try {
      const now = await fsp.lstat(file, { bigint: true }).catch(() => undefined);
      if (!now || identityOf(now) !== judged.identity) return false;
      const ours = `${file}.${token}`;
      await createExclusive(ours, content);
      await fsp.rename(ours, file).catch(async (e: unknown) => {
        await fsp.rm(ours, { force: true });
        throw e;
      });
      return true;
    } finally {
      await fsp.rm(claim, { force: true });
    }
  }
  throw new RequestError(
    `${file} is stale, and ${MAX_CLAIMS} takeovers of it were left unfinished (${file}.takeover*): remove them, then ${words.again}.`,
  );
}

/**
 * Whether a download (in this window or another) holds the lock of `part` now. A stale lock is held by no one: taking
 * the lock (lockPartFile) takes it over. For what to offer; whoever deletes the part file takes the lock first.
 */
export async function partLockHeld(part: string, options: LockOptions = {}): Promise<boolean> {
  const found = await readLock(lockPath(part));
  return found !== undefined && !isStale(found, options.isAlive ?? processAlive, options.now ?? Date.now);
}

/**
 * Takes the lock of `part`, taking over a stale one; a PartFileBusyError when another download holds it, a
 * RequestError when a folder has the lock's name.
 */
export function lockPartFile(part: string, options: LockOptions = {}): Promise<PartLock> {
  return lockFile(lockPath(part), { busy: (holder) => new PartFileBusyError(part, holder), again: 'download again' }, options);
}

/**
 * Takes the lock `file` (created exclusively; its folder must exist), taking over a stale one; `words.busy(holder)` is
 * thrown when someone else holds it, a RequestError when a folder has its name.
 */
export async function lockFile(file: string, words: LockWords, options: LockOptions = {}): Promise<FileLock> {
  const judge = (f: Found) => isStale(f, options.isAlive ?? processAlive, options.now ?? Date.now);
  const token = randomBytes(12).toString('hex');
  const content = JSON.stringify({
    pid: process.pid,
    host: os.hostname(),
    token,
    since: new Date((options.now ?? Date.now)()).toISOString(),
    ...(options.face !== undefined && { face: options.face }),
  });
  for (let attempt = 0; ; attempt++) {
    try {
      await createExclusive(file, content);
      break;
    } catch (e) {
      if (!exists(e)) throw e;
    }
    const found = await readLock(file);
    if (!found) continue; // released meanwhile
    if (found.kind === 'folder') throw refuseFolder(file, words.again);
    if (!judge(found) || attempt > 0) throw words.busy(found.holder);
    if (await takeOver(file, words, found, content, token, judge)) break;
  }
  const heartbeat = setInterval(() => {
    const t = new Date();
    fsp.utimes(file, t, t).catch(() => undefined);
  }, LOCK_HEARTBEAT_MS);
  heartbeat.unref();
  return {
    release: async () => {
      clearInterval(heartbeat);
      // Only our own: a lock judged stale and taken by another download is theirs now.
      const found = await readLock(file).catch(() => undefined);
      if (found?.holder.token === token) await fsp.rm(file, { force: true });
    },
  };
}
