// The service profiles the extension keeps, one per service origin (the origin the key is bound to): inferred from an
// answer or chosen by the person, stored in globalState (SERVICE_PROFILES_KEY) through editGlobalState, and read at
// each use, not at activation. The application-scoped setting `hostedReasoning.serviceProfile` (profiles by origin,
// written by hand or shared by a team) wins over what is kept for its origin; a workspace cannot set it.
// In memory only, per origin: the last answer nothing could read (for Choose How to Read…, which takes no path from
// its arguments), the first names last read (for Show How the Service Is Read), the last change logged, and the
// profile inferred when the setting's no longer fit the list. The setting is not ours to rewrite, so without that the
// setting's profile was tried, failed, and the same profile inferred, logged and kept again at every list read.
// A part inferred from an answer is kept (and its change logged) only once a second answer agrees, and at most so many
// times per window (inferredKeeping.ts says why); a part the person chose is kept at once.
import * as vscode from 'vscode';
import type { JobStatusPart, JobStatusProfile } from '../api/jobStatusProfile';
import {
  checkServiceProfile,
  type DownloadProfile,
  type ModelListProfile,
  type ServiceProfile,
  type StartedJobProfile,
  type StreamProfile,
} from '../api/serviceProfile';
import type { ProfileBook } from '../api/profileBook';
import type { StartAnswer } from '../api/startedJob';
import { withChosenPlace, type StartedJobKind } from '../api/startedJobChoice';
import { describeDownloadProfile, describeStreamProfile } from '../api/profileWords';
import { editGlobalState, UNCHANGED, type StoredState } from '../globalStateEdit';
import { InferredKeeping } from './inferredKeeping';
import { SERVICE_PROFILES_KEY } from '../storageKeys';
import type { Log } from '../log';
import { SECTION } from './config';

export const PROFILE_SETTING = 'serviceProfile';

/** Most origins kept; the oldest go first (a person rarely uses more than a few services). */
const MAX_ORIGINS = 50;

export class ServiceProfiles implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<string | undefined>();
  /** Fires with the origin whose profile a person chose, or undefined when the setting changed. */
  readonly onDidChange = this.changed.event;
  private readonly unreadable = new Map<string, unknown>();
  /** The last inference answer of each part (`answer`, `stream`) nothing could read, by `origin part`. */
  private readonly unreadableAnswers = new Map<string, unknown>();
  /** The last download answer of each origin with no URL the client could use, and the model it was for. */
  private readonly unreadableDownloads = new Map<string, { body: unknown; modelName: string }>();
  /** The last job status of each kind nothing could read, by `origin part`. */
  private readonly unreadableStatuses = new Map<string, unknown>();
  /** The last start answer of each kind nothing could read, by `origin kind`: taken by the command that started it. */
  private readonly unreadableStarts = new Map<string, { body: unknown; answer: StartAnswer }>();
  private readonly samples = new Map<string, string[]>();
  /** The last change of each origin's status parts logged, by `origin part`. */
  private readonly statusChanges = new Map<string, string>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** The setting's text last found wrong, so that it is logged once, not at every list. */
  private reported: string | undefined;
  /** Per origin, the last change logged: each distinct change is told once, not at every list. */
  private readonly told = new Map<string, string>();
  /** Per origin, the setting's model list profile (as text) the list no longer fit, and the one inferred instead. */
  private readonly settingMisfits = new Map<string, { setting: string; inferred: ModelListProfile }>();
  private readonly keeping = new InferredKeeping();
  /** The parts (`origin part`) said to change too often to keep: said once. */
  private readonly spent = new Set<string>();

  constructor(
    private readonly state: StoredState,
    private readonly log: Log,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SECTION}.${PROFILE_SETTING}`)) this.changed.fire(undefined);
      }),
    );
  }

  /** What the client of `origin` reads and reports through. */
  bookFor(origin: string): ProfileBook {
    return {
      modelList: () => this.modelList(origin),
      readModelList: ({ profile, change, samples }) => {
        this.samples.set(origin, samples);
        this.unreadable.delete(origin);
        if (change === undefined || profile.by === 'setting' || !this.agreed(origin, 'modelList', profile)) return;
        const setting = this.fromSetting(origin)?.modelList;
        // Read by the inferred profile until the setting changes (modelList), so the setting's is not tried again.
        if (setting) this.settingMisfits.set(origin, { setting: JSON.stringify(setting), inferred: profile });
        // Lists read at once were all read by the old profile: each reports the same change.
        if (this.told.get(origin) !== change) this.log.info(`${origin}: ${change}`);
        this.told.set(origin, change);
        void this.keep(origin, 'modelList', profile);
      },
      unreadableModelList: (body) => this.unreadable.set(origin, body),
      startedJob: () => this.startedJob(origin),
      readStartedJob: ({ kind, from, change }) => {
        // Logged and kept as the model list's is, also when the setting's place no longer fits (the setting still wins).
        if (change === undefined || !this.agreed(origin, `startedJob ${kind}`, from)) return;
        this.log.info(`${origin}: ${change}`);
        // Each endpoint has its place: the other one kept is kept as it is.
        const kept = this.stored(origin)?.startedJob;
        const part: StartedJobProfile = { by: 'inferred' };
        if (kept?.finetune !== undefined) part.finetune = kept.finetune;
        if (kept?.evaluation !== undefined) part.evaluation = kept.evaluation;
        part[kind] = from;
        void this.keep(origin, 'startedJob', part);
      },
      unreadableStartedJob: (kind, body, answer) => this.unreadableStarts.set(`${origin} ${kind}`, { body, answer }),
      download: () => this.download(origin),
      readDownload: ({ profile, change }) => {
        if (change === undefined || profile.by === 'setting' || !this.agreed(origin, 'download', profile)) return;
        this.log.info(`${origin}: ${change}`);
        void this.keep(origin, 'download', profile);
      },
      jobStatus: (part) => this.jobStatus(origin, part),
      readJobStatus: (part, { profile, change }) => {
        if (profile.by === 'setting' || !this.agreed(origin, part, profile)) return;
        // A setting's part that no longer fits is inferred afresh at every poll: said once, not at each.
        const key = `${origin} ${part}`;
        if (this.statusChanges.get(key) === change) return;
        this.statusChanges.set(key, change);
        this.log.info(`${origin}: ${change}`);
        void this.keep(origin, part, profile);
      },
      unreadableJobStatus: (part, body) => this.unreadableStatuses.set(`${origin} ${part}`, body),
      stream: () => this.stream(origin),
      readStream: ({ profile, change }) => {
        if (!this.agreed(origin, 'stream', profile)) return;
        this.log.info(`${origin}: ${change}`);
        void this.keep(origin, 'stream', profile);
      },
      unreadableAnswer: (part, body) => {
        // Deleted first, so the latest answer is the last of the map (lastUnreadableAnswer).
        this.unreadableAnswers.delete(`${origin} ${part}`);
        this.unreadableAnswers.set(`${origin} ${part}`, body);
      },
      unreadableDownload: (body, modelName) => this.unreadableDownloads.set(origin, { body, modelName }),
      answer: () => this.answer(origin),
      readAnswer: ({ profile, change }) => {
        if (!this.agreed(origin, 'answer', profile)) return;
        this.log.info(`${origin}: ${change}`);
        void this.keep(origin, 'answer', profile);
      },
    };
  }

  /** The last job status of this kind of `origin` nothing could read, in this window. */
  lastUnreadableStatus(origin: string, part: JobStatusPart): unknown {
    return this.unreadableStatuses.get(`${origin} ${part}`);
  }

  /**
   * Keeps how to read `origin`'s job statuses of one kind as the person chose it: the chosen parts over the ones kept
   * (the parts the person did not choose are still grown from the answers).
   */
  async chooseJobStatus(origin: string, part: JobStatusPart, chosen: Partial<JobStatusProfile>): Promise<void> {
    const kept = this.stored(origin)?.[part];
    const states = { ...(kept?.states ?? {}), ...(chosen.states ?? {}) };
    const profile: JobStatusProfile = { ...(kept ?? {}), ...chosen, by: 'chosen' };
    if (Object.keys(states).length > 0) profile.states = states;
    this.log.info(
      `${origin}: the ${part === 'finetuneStatus' ? 'finetune' : 'evaluation'} status is read as chosen: ${JSON.stringify(chosen)}`,
    );
    this.statusChanges.delete(`${origin} ${part}`);
    await this.keep(origin, part, profile);
    this.unreadableStatuses.delete(`${origin} ${part}`);
    this.changed.fire(origin);
  }

  /**
   * The start answer of `kind` nothing could read, handed over once: the command that started the job takes it at once
   * (with what it was starting), so an answer is never paired with another start.
   */
  takeUnreadableStart(origin: string, kind: StartedJobKind): { body: unknown; answer: StartAnswer } | undefined {
    const key = `${origin} ${kind}`;
    const kept = this.unreadableStarts.get(key);
    this.unreadableStarts.delete(key);
    return kept;
  }

  /** Keeps where `origin`'s start answers of `kind` have their id as the person chose it (by: 'chosen'). */
  async chooseStartedJob(origin: string, kind: StartedJobKind, path: string): Promise<void> {
    this.log.info(`${origin}: the started ${kind === 'finetune' ? 'finetuning job' : 'evaluation'}'s id is read as chosen: ${path}`);
    await this.keep(origin, 'startedJob', withChosenPlace(this.stored(origin)?.startedJob, kind, path));
    this.changed.fire(origin);
  }

  /**
   * The last inference answer of `origin` nothing could read, in this window: a non-streamed one (`answer`) or a
   * stream's first events (`stream`), the later of the two when both were kept.
   */
  lastUnreadableAnswer(origin: string): { part: 'answer' | 'stream'; body: unknown } | undefined {
    let last: { part: 'answer' | 'stream'; body: unknown } | undefined;
    // Map order is insertion order, and a part handed over again is moved last: the latest is the one the person saw.
    for (const [key, body] of this.unreadableAnswers) {
      if (key === `${origin} answer` || key === `${origin} stream`) last = { part: key.endsWith(' answer') ? 'answer' : 'stream', body };
    }
    return last;
  }

  /** Keeps how to read `origin`'s inference answers (`part`: non-streamed or streamed) as the person chose it. */
  async chooseAnswer(origin: string, part: 'answer' | 'stream', profile: StreamProfile): Promise<void> {
    this.log.info(
      `${origin}: ${part === 'answer' ? 'answers (not streamed)' : "the stream's events"} are read as chosen: ${describeStreamProfile(profile)}`,
    );
    await this.keep(origin, part, { ...profile, by: 'chosen' });
    this.unreadableAnswers.delete(`${origin} ${part}`);
    this.changed.fire(origin);
  }

  /** The last download answer of `origin` with no URL the client could use, in this window, and its model. */
  lastUnreadableDownload(origin: string): { body: unknown; modelName: string } | undefined {
    return this.unreadableDownloads.get(origin);
  }

  /** Keeps where `origin`'s download answer has its URL (and the values around it) as the person chose it. */
  async chooseDownload(origin: string, profile: DownloadProfile): Promise<void> {
    this.log.info(`${origin}: the download answer is read as chosen: ${describeDownloadProfile(profile)}`);
    await this.keep(origin, 'download', { ...profile, by: 'chosen' });
    this.unreadableDownloads.delete(origin);
    this.changed.fire(origin);
  }

  /** Where the started jobs' ids of `origin` are: the setting's, else the places kept. */
  startedJob(origin: string): StartedJobProfile | undefined {
    return this.fromSetting(origin)?.startedJob ?? this.stored(origin)?.startedJob;
  }

  /** Where `origin`'s download answer has its values: the setting's, else the one kept. */
  download(origin: string): DownloadProfile | undefined {
    return this.fromSetting(origin)?.download ?? this.stored(origin)?.download;
  }

  /** The profile of one kind of job status for `origin`: the setting's, else the one kept. */
  jobStatus(origin: string, part: JobStatusPart): JobStatusProfile | undefined {
    return this.fromSetting(origin)?.[part] ?? this.stored(origin)?.[part];
  }

  /** The non-streamed answer's profile for `origin`: the setting's, else the one kept. */
  answer(origin: string): StreamProfile | undefined {
    return this.fromSetting(origin)?.answer ?? this.stored(origin)?.answer;
  }

  /** The stream profile for `origin`: the setting's, else the one kept. */
  stream(origin: string): StreamProfile | undefined {
    return this.fromSetting(origin)?.stream ?? this.stored(origin)?.stream;
  }

  /**
   * The model list profile for `origin`: the setting's (or, once the list no longer fit it, the one inferred instead
   * while the setting stays as it was), else the one kept.
   */
  modelList(origin: string): ModelListProfile | undefined {
    const setting = this.fromSetting(origin)?.modelList;
    if (!setting) return this.stored(origin)?.modelList;
    const misfit = this.settingMisfits.get(origin);
    return misfit?.setting === JSON.stringify(setting) ? misfit.inferred : setting;
  }

  /** The last model list of `origin` nothing could read, in this window. */
  lastUnreadable(origin: string): unknown {
    return this.unreadable.get(origin);
  }

  /** The first names the last list of `origin` gave, in this window. */
  lastSamples(origin: string): string[] | undefined {
    return this.samples.get(origin);
  }

  /** Keeps a way to read `origin`'s model list chosen by the person (the view then refreshes). */
  async choose(origin: string, profile: ModelListProfile): Promise<void> {
    this.log.info(`${origin}: the model list is read as chosen: ${profile.lists.map((l) => l.names).join(', ')}`);
    await this.keep(origin, 'modelList', { ...profile, by: 'chosen' });
    this.unreadable.delete(origin);
    this.changed.fire(origin);
  }

  /** Forgets every kept profile (Clear Stored Records). */
  async forgetAll(): Promise<void> {
    await editGlobalState(this.state, SERVICE_PROFILES_KEY, () => undefined);
  }

  /** Whether a part inferred now is to be kept (inferredKeeping.ts); a part that changes too often is said so once. */
  private agreed(origin: string, part: string, value: unknown): boolean {
    const key = `${origin} ${part}`;
    const offer = this.keeping.offer(key, value);
    if (offer === 'spent' && !this.spent.has(key)) {
      this.spent.add(key);
      this.log.info(`${origin}: the ${part} part changed too often in this window to be kept again; each answer is read as it comes`);
    }
    return offer === 'keep';
  }

  /** Keeps one part of `origin`'s profile, the other parts as they are. */
  private keep<K extends keyof ServiceProfile>(origin: string, part: K, value: NonNullable<ServiceProfile[K]>): Promise<boolean> {
    return editGlobalState(
      this.state,
      SERVICE_PROFILES_KEY,
      (stored) => {
        const kept = isPlainObject(stored) && isPlainObject(stored[origin]) ? stored[origin] : undefined;
        // The same part again is no change: no write (re-inserting it last would be one).
        if (kept && JSON.stringify(kept[part]) === JSON.stringify(value)) return UNCHANGED;
        const all = isPlainObject(stored) ? { ...stored } : {};
        // Re-inserted last: the most recently kept origin is the last to go.
        delete all[origin];
        all[origin] = { ...kept, [part]: value };
        const origins = Object.keys(all);
        for (const old of origins.slice(0, Math.max(0, origins.length - MAX_ORIGINS))) delete all[old];
        return all;
      },
      { log: (m) => this.log.warn(m), what: 'The service profiles' },
    );
  }

  private stored(origin: string): ServiceProfile | undefined {
    const all = this.state.get<unknown>(SERVICE_PROFILES_KEY);
    if (!isPlainObject(all) || !Object.prototype.hasOwnProperty.call(all, origin)) return undefined;
    const checked = checkServiceProfile(all[origin]);
    if ('problem' in checked) {
      this.log.warn(`The kept profile of ${origin} is not used: ${checked.problem}.`);
      return undefined;
    }
    return checked.value;
  }

  private fromSetting(origin: string): ServiceProfile | undefined {
    const all = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(PROFILE_SETTING)?.globalValue;
    if (!isPlainObject(all) || !Object.prototype.hasOwnProperty.call(all, origin)) return undefined;
    const entry = all[origin];
    const checked = checkServiceProfile(entry, 'setting');
    if ('problem' in checked) {
      const text = JSON.stringify(entry);
      if (this.reported !== text) this.log.warn(`The setting ${SECTION}.${PROFILE_SETTING} for ${origin} is not used: ${checked.problem}.`);
      this.reported = text;
      return undefined;
    }
    return checked.value;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
