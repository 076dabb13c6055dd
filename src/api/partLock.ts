// One download at a time per part file, across windows. Two downloads of one model into one folder (Download from the
// notification and from the Models view, Resume in two windows) would otherwise write the same part file: one
// truncates or renames it under the other, which then fails with a misleading "no such file" or "0 bytes".
//
// The lock is `<part>.lock`, created exclusively and never through a link, holding who took it (process id, host,
// a random token). Its modification time is refreshed while the download runs, so a lock left by a window that
// crashed, or by a process whose id was since reused, or by another machine on a shared folder, goes stale: a lock
// whose process is gone (same host) or whose heartbeat stopped is removed and taken. Within one window the download
// command joins the running download instead of asking for the lock (features/download/downloadCommand.ts).
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import { RequestError } from './errors';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** How often a held lock says it is alive, and how long without that makes it stale. */
export const LOCK_HEARTBEAT_MS = 10_000;
export const LOCK_STALE_MS = 60_000;

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
    super(`${part} is being written by ${who}: let it finish, or stop it in the window that runs it, then download again.`);
  }
}

export interface PartLock {
  /** Stops the heartbeat and removes the lock, if it is still this one. */
  release(): Promise<void>;
}

interface Holder {
  pid?: number;
  host?: string;
  token?: string;
}

export interface LockOptions {
  /** Whether a process of this host runs (tests replace it). */
  isAlive?: (pid: number) => boolean;
  now?: () => number;
}

const lockPath = (part: string) => `${part}.lock`;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(file: string): Promise<{ holder: Holder; mtimeMs: number; regular: boolean } | undefined> {
  let handle;
  try {
    handle = await fsp.open(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // A link or something else planted under the name: not a lock anyone took.
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EISDIR') return { holder: {}, mtimeMs: 0, regular: false };
    throw e;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { holder: {}, mtimeMs: 0, regular: false };
    let holder: Holder = {};
    if (stat.size <= 4096) {
      try {
        const o = JSON.parse(await handle.readFile('utf8')) as Record<string, unknown>;
        holder = {
          ...(Number.isSafeInteger(o.pid) && (o.pid as number) > 0 ? { pid: o.pid as number } : {}),
          ...(typeof o.host === 'string' ? { host: o.host.slice(0, 255) } : {}),
          ...(typeof o.token === 'string' ? { token: o.token } : {}),
        };
      } catch {
        // Half written (its writer is writing it now, or crashed doing so): judged by its age alone.
      }
    }
    return { holder, mtimeMs: stat.mtimeMs, regular: true };
  } finally {
    await handle.close();
  }
}

/** Whether a lock found is no longer anyone's: a planted non-file, a stopped heartbeat, or a process of this host that is gone. */
function isStale(
  { holder, mtimeMs, regular }: { holder: Holder; mtimeMs: number; regular: boolean },
  isAlive: (pid: number) => boolean,
  now: () => number,
): boolean {
  const sameHost = holder.host === undefined || holder.host === os.hostname();
  return !regular || now() - mtimeMs > LOCK_STALE_MS || (sameHost && holder.pid !== undefined && !isAlive(holder.pid));
}

/**
 * Whether a download (in this window or another) holds the lock of `part` now. A stale lock is held by no one: taking
 * the lock (lockPartFile) removes it. For what to offer; whoever deletes the part file takes the lock first.
 */
export async function partLockHeld(part: string, options: LockOptions = {}): Promise<boolean> {
  const found = await readHolder(lockPath(part));
  return found !== undefined && !isStale(found, options.isAlive ?? processAlive, options.now ?? Date.now);
}

/** Takes the lock of `part`, removing a stale one; a PartFileBusyError when another download holds it. */
export async function lockPartFile(part: string, options: LockOptions = {}): Promise<PartLock> {
  const isAlive = options.isAlive ?? processAlive;
  const now = options.now ?? Date.now;
  const file = lockPath(part);
  const token = randomBytes(12).toString('hex');
  for (let attempt = 0; ; attempt++) {
    let handle;
    try {
      handle = await fsp.open(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const found = await readHolder(file);
      if (!found) continue; // released meanwhile
      if (!isStale(found, isAlive, now) || attempt > 0) throw new PartFileBusyError(part, found.holder);
      await fsp.rm(file, { force: true });
      continue;
    }
    try {
      await handle.writeFile(JSON.stringify({ pid: process.pid, host: os.hostname(), token, since: new Date(now()).toISOString() }));
    } finally {
      await handle.close();
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
        const found = await readHolder(file).catch(() => undefined);
        if (found?.holder.token === token) await fsp.rm(file, { force: true });
      },
    };
  }
}
