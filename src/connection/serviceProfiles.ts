// The service profiles the extension keeps, one per service origin (the origin the key is bound to): inferred from an
// answer or chosen by the person, stored in globalState (SERVICE_PROFILES_KEY) through editGlobalState, and read at
// each use, not at activation. The application-scoped setting `hostedReasoning.serviceProfile` (profiles by origin,
// written by hand or shared by a team) wins over what is kept for its origin; a workspace cannot set it.
// In memory only, per origin: the last answer nothing could read (for Choose How to Read…, which takes no path from
// its arguments) and the first names last read (for Show How the Service Is Read).
import * as vscode from 'vscode';
import {
  checkServiceProfile,
  type ModelListProfile,
  type ProfileBook,
  type ServiceProfile,
  type StreamProfile,
} from '../api/serviceProfile';
import { editGlobalState, type StoredState } from '../globalStateEdit';
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
  private readonly samples = new Map<string, string[]>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** The setting's text last found wrong, so that it is logged once, not at every list. */
  private reported: string | undefined;

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
        if (change === undefined || profile.by === 'setting') return;
        this.log.info(`${origin}: ${change}`);
        void this.keep(origin, 'modelList', profile);
      },
      unreadableModelList: (body) => this.unreadable.set(origin, body),
      stream: () => this.stream(origin),
      readStream: ({ profile, change }) => {
        this.log.info(`${origin}: ${change}`);
        void this.keep(origin, 'stream', profile);
      },
      answer: () => this.answer(origin),
      readAnswer: ({ profile, change }) => {
        this.log.info(`${origin}: ${change}`);
        void this.keep(origin, 'answer', profile);
      },
    };
  }

  /** The non-streamed answer's profile for `origin`: the setting's, else the one kept. */
  answer(origin: string): StreamProfile | undefined {
    return this.fromSetting(origin)?.answer ?? this.stored(origin)?.answer;
  }

  /** The stream profile for `origin`: the setting's, else the one kept. */
  stream(origin: string): StreamProfile | undefined {
    return this.fromSetting(origin)?.stream ?? this.stored(origin)?.stream;
  }

  /** The model list profile for `origin`: the setting's, else the one kept. */
  modelList(origin: string): ModelListProfile | undefined {
    return this.fromSetting(origin)?.modelList ?? this.stored(origin)?.modelList;
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

  /** Keeps one part of `origin`'s profile, the other parts as they are. */
  private keep<K extends keyof ServiceProfile>(origin: string, part: K, value: NonNullable<ServiceProfile[K]>): Promise<boolean> {
    return editGlobalState(
      this.state,
      SERVICE_PROFILES_KEY,
      (stored) => {
        const all = isPlainObject(stored) ? { ...stored } : {};
        // Re-inserted last: the most recently kept origin is the last to go.
        delete all[origin];
        all[origin] = { ...(isPlainObject(stored) && isPlainObject(stored[origin]) ? stored[origin] : {}), [part]: value };
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
