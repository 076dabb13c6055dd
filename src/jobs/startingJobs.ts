// One start of a paid job at a time per service, key and model (and dataset, for an evaluation), in every window.
// The checks before a start (the duplicate-name rule, the running evaluation) read the job store, and a job is in it
// only once the service has answered, which for a finetune's upload is minutes later: two starts of one request (two
// tool calls at once, the wizard and Chat, a second window) both passed them and both were paid for (issue 35). So a
// start holds its entry from before its checks until its job is recorded or it failed, and a second start is refused
// while it is held, with words that name the first.
//
// Within a window the entry is taken synchronously (a Map, before any await), so two starts of one thread cannot both
// take it. Across windows it is a lock file under the extension's global storage, created exclusively (partLock.ts:
// O_EXCL is atomic where globalState is not: two windows' flushes can cross), named by a hash of what is started (the
// scope holds the key's identity, never the key). A window that crashed leaves a lock whose process is gone, and a
// lock whose heartbeat stopped goes stale after LOCK_STALE_MS: either is taken over, not obeyed. Released after the
// record is written (the job store then answers for it) or when the start fails. The command line's runs and its MCP
// server hold their starts the same way, under the config folder (a folder of their own: the extension's windows and
// they do not see each other's holds); each lock says which face took it, so a refusal says where the first start
// really is (another window, a command-line run, an MCP server).
// No vscode: tested under plain mocha (test/unit/startingJobs.test.ts).
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { RequestError } from '../api/errors';
import { lockFile, type FileLock, type LockHolder, type LockOptions } from '../api/partLock';
import { formatMessage, l10n, type Translate } from '../l10n';
import { clockTime } from './jobFormat';
import type { JobKind, JobRecord } from './jobRecord';

/** What is being started. */
export interface StartKey {
  kind: JobKind;
  /** `<base URL>#<key identity>` (Session.scope). */
  scope: string;
  modelName: string;
  /** evaluation only */
  datasetName?: string;
}

/** What holds starts: an extension window, a command-line run, an MCP server (`hosted-reasoning mcp`). */
export type StartFace = 'window' | 'cli' | 'mcp';

const FACES: readonly string[] = ['window', 'cli', 'mcp'] satisfies StartFace[];

/** A start under way that holds the entry a second start asked for. */
export interface StartUnderWay {
  key: StartKey;
  /** When it began (epoch ms); undefined when another window's lock did not say. */
  since?: number;
  /** Whether it runs in this window (this process). */
  here: boolean;
  /** What runs it: this process's face when here, else what its lock says (a lock that does not say: a window). */
  face?: StartFace;
  /** The upload's share sent, 0-100 (this window's finetunes only). */
  percent?: number;
}

export interface StartHold {
  /** Tells a second start of this window how far the upload is. */
  progress(sent: number, total: number): void;
  release(): Promise<void>;
}

/**
 * A start refused before anything was sent: the same one is under way (`underWay`), or its job is already recorded
 * and running (`running`: an evaluation of the same model and dataset). A RequestError: the person changes what is
 * asked (another name) or waits.
 */
export class StartRefusedError extends RequestError {
  constructor(
    message: string,
    readonly refusal: { underWay?: StartUnderWay; running?: JobRecord } = {},
  ) {
    super(message);
  }
}

export class StartingJobs {
  /** This window's starts under way, by file name; an entry is here from take() until its release is done. */
  private readonly here = new Map<string, { since: number; percent?: number }>();

  /**
   * `folder`: where the locks live (a folder of the extension's global storage, made when needed). `log` hears when
   * the folder cannot be used: the start is then held in this window only, never refused for it.
   */
  constructor(
    private readonly folder: string,
    private readonly log: (message: string) => void = () => undefined,
    private readonly options: LockOptions & { face?: StartFace } = {},
  ) {}

  private get face(): StartFace {
    return this.options.face ?? 'window';
  }

  /** Takes the entry of `key`: the hold, or the start under way that has it. */
  async take(key: StartKey): Promise<{ hold: StartHold } | { underWay: StartUnderWay }> {
    const name = fileName(key);
    const mine = this.here.get(name);
    if (mine) return { underWay: { key, since: mine.since, here: true, percent: mine.percent, face: this.face } };
    // Taken before the first await: a second start of this window sees it.
    const entry: { since: number; percent?: number } = { since: (this.options.now ?? Date.now)() };
    this.here.set(name, entry);
    let lock: FileLock | undefined;
    try {
      await fsp.mkdir(this.folder, { recursive: true });
      lock = await lockFile(
        path.join(this.folder, name),
        { busy: (holder) => new HeldElsewhere(holder), again: 'start it again' },
        { ...this.options, face: this.face },
      );
    } catch (e) {
      if (e instanceof HeldElsewhere) {
        this.here.delete(name);
        const face = FACES.includes(e.holder.face ?? '') ? (e.holder.face as StartFace) : 'window';
        return { underWay: { key, since: e.holder.since, here: false, face } };
      }
      this.log(
        `Starting jobs: the lock under ${this.folder} could not be taken (${e instanceof Error ? e.message : String(e)}); this start is held in this window only.`,
      );
    }
    let released = false;
    return {
      hold: {
        progress: (sent, total) => {
          entry.percent = total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 0;
        },
        release: async () => {
          if (released) return;
          released = true;
          try {
            await lock?.release();
          } finally {
            // After the file: while it exists, this window still says it is this one's.
            this.here.delete(name);
          }
        },
      },
    };
  }
}

/** Thrown by the lock when another window holds it; turned into a StartUnderWay. */
class HeldElsewhere extends Error {
  constructor(readonly holder: LockHolder) {
    super('held by another window');
  }
}

/** The lock's name: a hash of what is started (names can hold any character; the scope names no key). */
function fileName(key: StartKey): string {
  const what = JSON.stringify([key.kind, key.scope, key.modelName, key.datasetName ?? null]);
  return `${createHash('sha256').update(what).digest('hex').slice(0, 32)}.lock`;
}

/**
 * "'my-model' is already being started in this window (upload 40 %, since 16:02)." In the person's language by
 * default; `t` = formatMessage gives the English a tool's result says to an agent. Names are as given: the caller
 * makes them inert for where they go.
 */
export function underWayText(u: StartUnderWay, t: Translate = l10n.t): string {
  const where = whereText(u, t);
  const parts = [
    ...(u.percent !== undefined ? [t('upload {0} %', u.percent)] : []),
    ...(u.since !== undefined ? [t('since {0}', clockTime(u.since))] : []),
  ];
  const detail = parts.length > 0 ? ` (${parts.join(', ')})` : '';
  return u.key.kind === 'evaluation'
    ? t('An evaluation of {0} on {1} is already being started {2}{3}.', u.key.modelName, u.key.datasetName ?? '', where, detail)
    : t("'{0}' is already being started {1}{2}.", u.key.modelName, where, detail);
}

/** Where the start under way runs, as underWayText says it. */
function whereText(u: StartUnderWay, t: Translate): string {
  switch (u.face) {
    case 'cli':
      return u.here ? t('by this command-line run') : t('by another hosted-reasoning command-line run');
    case 'mcp':
      return u.here ? t('by this MCP server') : t('by a hosted-reasoning MCP server');
    default:
      return u.here ? t('in this window') : t('in another window');
  }
}

/** underWayText in English, for an agent. */
export const underWayEnglish = (u: StartUnderWay): string => underWayText(u, formatMessage);
