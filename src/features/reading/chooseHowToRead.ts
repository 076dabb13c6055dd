// Choose How to Read…: one command for every kind of answer the spec leaves "not shown" (issue 36, items 3 and 8). It
// opens one place's last answer, as the one profile book kept it, readable or not: from a job row that job's status,
// from the Models view the model list, from an error (a start's, a download's, the playground's) or the playground's
// answer that place's; from the palette the last answer nothing could read, else a pick of the places whose last
// answers are kept. It shows how the answer is read now beside its fields (a misread is one pick from right), and what
// the person picks is kept as the profile's chosen part (ServiceProfiles.choose; one that later no longer fits follows
// the book's one policy). What may be chosen is the kind's description (answerKinds.ts: `choices`); the words and the
// step after a choice (list again, follow the job, download again, ask the jobs again) are here.
// The command takes no path, URL or key from its arguments: only a job row (read again from the current scope's store)
// or the name of a place; the answer is the one this window kept.
import * as vscode from 'vscode';
import { choicesOf, startedJobAt, type ChoicePicks, type ChoiceField, type ChoiceInput, type ChoiceRole } from '../../api/answerKinds';
import type { AnswerContext, PartProfile, ProfilePart } from '../../api/profileBook';
import { parsePath, valueAt } from '../../api/profilePath';
import { checkServiceProfile } from '../../api/profileFormat';
import type { JobState } from '../../api/types';
import { COMMANDS } from '../../contributions';
import type { JobRecord } from '../../jobs/jobRecord';
import { buildLineage } from '../../jobs/lineage';
import type { UnreadableStart } from '../../jobs/unreadableStarts';
import type { KeptAnswer } from '../../connection/serviceProfiles';
import type { Services } from '../../services';
import { VIEW_JOBS } from '../../services';
import { showInformationMessage, showWarningMessage } from '../../util/notify';
import { interact } from '../../util/quickInputStep';
import { untrustedText } from '../../util/untrustedText';
import { isJobNode } from '../jobs/jobsTree';

/** The places a command link, a view or an error may name (a job's status is named by its row). */
export const READING_PLACES = ['modelList', 'startedJob', 'download', 'answer'] as const;
export type ReadingPlace = (typeof READING_PLACES)[number];

export interface ChooseDeps {
  services: Services;
  /** Lists the models again (the Models view). */
  refreshModels(): Promise<unknown>;
  /** Asks the followed jobs again now. */
  pollNow(): Promise<unknown>;
}

export function chooseHowToReadCommand(deps: ChooseDeps) {
  return { [COMMANDS.chooseHowToRead]: (arg?: unknown) => chooseHowToRead(deps, arg) };
}

/** One place's last answer, as kept. */
interface Found {
  part: ProfilePart;
  origin: string;
  body: unknown;
  context?: AnswerContext<ProfilePart>;
  /** A status's job. */
  jobId?: string;
  unreadable: boolean;
  /** A start whose job is followed once its id is chosen. */
  start?: UnreadableStart;
  /** The profile that read it, when the book knows it. */
  profile?: PartProfile<ProfilePart>;
}

/** The words of each part: the picks' title. */
function partTitle(part: ProfilePart): string {
  switch (part) {
    case 'modelList':
      return vscode.l10n.t('Choose How to Read the Model List');
    case 'startedJob':
      return vscode.l10n.t('Choose How to Read the Started Job');
    case 'download':
      return vscode.l10n.t('Choose How to Read the Download Answer');
    case 'finetuneStatus':
    case 'evaluationStatus':
      return vscode.l10n.t('Choose How to Read the Job’s Status');
    case 'answer':
    case 'stream':
      return vscode.l10n.t('Choose How to Read the Answer');
  }
}

/** A place's name in the pick of places. */
function placeName(part: ProfilePart): string {
  switch (part) {
    case 'modelList':
      return vscode.l10n.t('The model list');
    case 'startedJob':
      return vscode.l10n.t('The answer to a start');
    case 'download':
      return vscode.l10n.t('The download answer');
    case 'finetuneStatus':
      return vscode.l10n.t('A finetuning job’s status');
    case 'evaluationStatus':
      return vscode.l10n.t('An evaluation’s status');
    case 'answer':
      return vscode.l10n.t('The answer');
    case 'stream':
      return vscode.l10n.t('The streamed answer');
  }
}

/** The words of each role: its name, the question its pick asks, and the item that leaves it out (an optional role). */
function roleWords(role: ChoiceRole, found: Found): { name: string; question: string; none?: string } {
  const job = found.start?.job.modelName;
  switch (role) {
    case 'list':
      return { name: vscode.l10n.t('The model names'), question: vscode.l10n.t('Where are the model names in the service’s answer?') };
    case 'jobId':
      return {
        name: vscode.l10n.t('The job’s id'),
        question:
          job === undefined
            ? vscode.l10n.t('Which field of the service’s answer is the started job’s id?')
            : found.start?.kind === 'finetune'
              ? vscode.l10n.t('Which field of the service’s answer is the id of the finetuning job creating {0}?', untrustedText(job))
              : vscode.l10n.t('Which field of the service’s answer is the id of the evaluation of {0}?', untrustedText(job)),
      };
    case 'url':
      return { name: vscode.l10n.t('The file’s URL'), question: vscode.l10n.t('Which URL of the service’s answer is the model’s file?') };
    case 'size':
      return { name: vscode.l10n.t('The file’s size'), question: vscode.l10n.t('Which field holds the file’s size in bytes?') };
    case 'sha256':
      return { name: vscode.l10n.t('The file’s SHA-256'), question: vscode.l10n.t('Which field holds the file’s SHA-256 checksum?') };
    case 'expires':
      return { name: vscode.l10n.t('When the URL expires'), question: vscode.l10n.t('Which field says when the URL expires?') };
    case 'state':
      return {
        name: vscode.l10n.t('The job’s state'),
        question: vscode.l10n.t('Which field of the service’s answer says how the job stands?'),
      };
    case 'progress':
      return {
        name: vscode.l10n.t('The job’s progress'),
        question: vscode.l10n.t('Which field says how far the job is (the one that moves)?'),
      };
    case 'total':
      return {
        name: vscode.l10n.t('The total the progress counts toward'),
        question: vscode.l10n.t('Of which total is that a count?'),
        none: vscode.l10n.t('None: it is a percentage'),
      };
    case 'madeModel':
      return { name: vscode.l10n.t('The model the job made'), question: vscode.l10n.t('Which field names the model the job made?') };
    case 'error':
      return { name: vscode.l10n.t('Why the job failed'), question: vscode.l10n.t('Which field says why the job failed?') };
    case 'answer':
      return {
        name: vscode.l10n.t('The answer’s text'),
        question: vscode.l10n.t('Which field of the service’s answer holds the answer’s text?'),
      };
    case 'reasoning':
      return {
        name: vscode.l10n.t('The reasoning'),
        question: vscode.l10n.t('Which field holds the model’s reasoning, if any?'),
        none: vscode.l10n.t('No reasoning in this answer'),
      };
  }
}

/** Resolves with what the step after the choice resolved with, or undefined when nothing was chosen. */
async function chooseHowToRead(deps: ChooseDeps, arg: unknown): Promise<unknown> {
  const found = await findAnswer(deps.services, arg);
  if (!found) return undefined;
  const { services } = deps;
  const { part, origin } = found;
  const choices = choicesOf(part);
  const { baseUrl } = await services.session.current();
  // As the client judges a download URL: plain http only when the service itself is (on this machine: urlPolicy.ts).
  const input: ChoiceInput<ProfilePart> = { body: found.body, context: found.context, allowHttp: /^http:/i.test(baseUrl ?? '') };
  // How the answer is read now (by the profile that read it): none for an answer nothing could read.
  const now = found.unreadable ? undefined : (found.profile ?? services.profiles.profile(origin, part));
  let roles: ChoiceRole[];
  if (now !== undefined && choices.roles.length > 1) {
    const role = await pickRole(found, now, input);
    if (!role) return undefined;
    roles = [role];
  } else roles = choices.roles.filter((r) => r.asked || choices.roles.length === 1).map((r) => r.role);
  const picks: ChoicePicks = { fields: {} };
  for (let i = 0; i < roles.length; i++) {
    const role = roles[i]!;
    const optional = choices.roles.find((r) => r.role === role)?.optional === true;
    // A field picked for an earlier role is not offered again (the reasoning is not the answer's text).
    const taken = new Set(Object.values(picks.fields).map((f) => f?.path));
    const fields = choices.fields(role, input).filter((f) => !taken.has(f.path));
    if (fields.length === 0) {
      if (optional) continue;
      void showInformationMessage(
        vscode.l10n.t("Nothing in the service's last answer could be {0}: see the log for what it sent.", roleWords(role, found).name),
      );
      return undefined;
    }
    const field = await pickField(found, role, fields, now, input, optional);
    if (field === undefined) return undefined;
    picks.fields[role] = field;
    const word = field && choices.unknownWord?.(role, field);
    if (word !== undefined && word !== null) {
      const state = await pickMeaning(word);
      if (!state) return undefined;
      picks.meanings = { ...picks.meanings, [word]: state };
    }
    const next = field && choices.then?.(role, field);
    if (next && !roles.includes(next)) roles.splice(i + 1, 0, next);
  }
  // The choice corrects how this answer is read: the rest of its reading stays (else the part kept).
  const base = now ?? services.profiles.kept(origin, part);
  const made = choices.make(picks, base, input);
  const checked = made === undefined ? undefined : checkServiceProfile({ [part]: made });
  if (!made || !checked || 'problem' in checked) {
    const [role, field] = Object.entries(picks.fields).find(([, f]) => f) ?? [];
    void showWarningMessage(
      vscode.l10n.t(
        '{0} holds no {1} the extension can read: choose another field.',
        field ? fieldLabel(field) : vscode.l10n.t('The whole answer'),
        role ? roleWords(role as ChoiceRole, found).name.toLocaleLowerCase() : '',
      ),
    );
    return undefined;
  }
  await services.profiles.choose(origin, part, made, found.jobId);
  return after(deps, found, made);
}

/** The step after a choice, per kind: the place is read again by it. */
async function after(deps: ChooseDeps, found: Found, made: PartProfile<ProfilePart>): Promise<unknown> {
  const { services } = deps;
  switch (found.part) {
    case 'modelList':
      await deps.refreshModels();
      return true;
    case 'startedJob':
      return found.start ? followStart(services, found.start, made) : made;
    case 'download':
      return vscode.commands.executeCommand(COMMANDS.download, { modelName: (found.context as AnswerContext<'download'>).modelName });
    case 'finetuneStatus':
    case 'evaluationStatus':
      await deps.pollNow();
      return made;
    case 'answer':
    case 'stream':
      void showInformationMessage(vscode.l10n.t("The service's answers are read as you chose: run the prompt again."));
      return made;
  }
}

/** The start's job enters the store as if the start had been read: the Jobs view, the status bar and the poller follow it. */
async function followStart(services: Services, start: UnreadableStart, made: PartProfile<'startedJob'>): Promise<JobRecord | undefined> {
  const path = made[start.kind]!;
  const started = startedJobAt(start.body, start.answer, path);
  if (!started) return undefined;
  const job: JobRecord = { ...start.job, id: started.jobId, updatedAt: Date.now() };
  if (start.lineage) job.lineage = buildLineage({ ...start.lineage, jobId: started.jobId });
  await services.jobs.put(job);
  services.starts.forget(start);
  const what = start.kind === 'finetune' ? 'Finetuning job' : 'Evaluation';
  services.log.info(`${what} ${job.id} followed, its id read at ${path || 'the whole answer'} as chosen.`);
  void vscode.commands.executeCommand(`${VIEW_JOBS}.focus`);
  void showInformationMessage(
    start.kind === 'finetune'
      ? vscode.l10n.t('Finetuning job {0} is followed: {1} is being created. You will be notified when it is ready.', job.id, job.modelName)
      : vscode.l10n.t('Evaluation {0} is followed: {1} on {2}.', job.id, job.modelName, job.datasetName ?? ''),
  );
  return job;
}

/** The answer `arg` names (a job row, a place, or none: the palette), or undefined once the person was told why none. */
async function findAnswer(services: Services, arg: unknown): Promise<Found | undefined> {
  const { origin } = await services.session.current();
  const scope = await services.session.scope();
  const none = (text: string) => {
    void showInformationMessage(text);
    return undefined;
  };
  if (origin === undefined || scope === undefined) {
    return none(vscode.l10n.t('No service is connected in this window: there is nothing to choose.'));
  }
  const kept = (part: ProfilePart, jobId?: string): Found | undefined => {
    const last = services.profiles.lastAnswer(origin, part, jobId);
    return last && { ...foundOf(last), origin, ...(jobId ? { jobId } : {}) };
  };
  const latest = (parts?: readonly ProfilePart[], unreadable?: boolean): Found | undefined => {
    const last = services.profiles.latest(origin, { ...(parts ? { parts } : {}), ...(unreadable ? { unreadable } : {}) });
    const jobId = (last?.context as { jobId?: string } | undefined)?.jobId;
    return last && { ...foundOf(last), origin, ...(jobId ? { jobId } : {}) };
  };
  const waiting = (): Found | undefined => {
    const start = services.starts.latest(scope);
    return (
      start && {
        part: 'startedJob',
        origin: start.origin,
        body: start.body,
        context: { kind: start.kind, answer: start.answer },
        unreadable: true,
        start,
      }
    );
  };
  if (isJobNode(arg)) {
    // Only a row of the view, read again from the current scope's store (a command link can pass any argument).
    const job = scope === arg.scope ? services.jobs.get(scope, arg.key) : undefined;
    if (!job) return undefined;
    const found = kept(job.kind === 'finetune' ? 'finetuneStatus' : 'evaluationStatus', job.id);
    return found ?? none(vscode.l10n.t('No status of this job is kept in this window yet: Refresh the Jobs view, then try again.'));
  }
  const place = placeOf(arg);
  // Anything else a command link passes names nothing: only the palette (no argument) opens the last unreadable answer.
  if (arg !== undefined && place === undefined) return undefined;
  if (place === 'modelList') {
    return (
      kept('modelList') ?? none(vscode.l10n.t('No model list of this service is kept in this window: Refresh Models, then try again.'))
    );
  }
  if (place === 'startedJob') {
    // A start's message names the start waiting for its id (a start read already is corrected from the palette).
    return (
      waiting() ??
      none(vscode.l10n.t('No started job waits to be read in this window: the command is for a start whose answer could not be read.'))
    );
  }
  if (place === 'download') {
    return (
      latest(['download']) ?? none(vscode.l10n.t('No download answer of this service is kept in this window: there is nothing to choose.'))
    );
  }
  if (place === 'answer') {
    return (
      latest(['answer', 'stream']) ??
      none(vscode.l10n.t('No answer of this service is kept in this window: run the prompt again, then try again.'))
    );
  }
  // The palette: the last answer nothing could read, else a pick of the places whose last answers are kept.
  const unreadable = latest(undefined, true) ?? waiting();
  if (unreadable) return unreadable;
  const places = (['modelList', 'startedJob', 'download', 'finetuneStatus', 'evaluationStatus', 'answer', 'stream'] as const)
    .map((part) => latest([part]))
    .filter((f): f is Found => f !== undefined);
  if (places.length === 0) {
    return none(vscode.l10n.t('No answer of this service is kept in this window yet: there is nothing to choose.'));
  }
  return pickPlace(services, places);
}

/** The place an argument names: `{ place }`, or a row of the Models view (the model list's). */
function foundOf(last: KeptAnswer): Omit<Found, 'origin'> {
  const { part, body, context, unreadable, profile } = last;
  return { part, body, context, unreadable, ...(profile ? { profile } : {}) };
}

function placeOf(arg: unknown): ReadingPlace | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  if ((arg as { type?: unknown }).type === 'model') return 'modelList';
  const place = (arg as { place?: unknown }).place;
  return READING_PLACES.find((p) => p === place);
}

interface PlaceItem extends vscode.QuickPickItem {
  found: Found;
}

async function pickPlace(services: Services, places: Found[]): Promise<Found | undefined> {
  const scope = await services.session.scope();
  const pick = vscode.window.createQuickPick<PlaceItem>();
  pick.title = vscode.l10n.t('Choose How to Read…');
  pick.placeholder = vscode.l10n.t('Which of the service’s answers?');
  pick.ignoreFocusOut = true;
  pick.items = places.map((found) => {
    const job = found.jobId === undefined || !scope ? undefined : services.jobs.list(scope).find((j) => j.id === found.jobId);
    return {
      found,
      label: placeName(found.part),
      description: job ? untrustedText(job.modelName, { maxChars: 80 }) : undefined,
    };
  });
  return pickOne(pick, (item) => item.found);
}

interface RoleItem extends vscode.QuickPickItem {
  role: ChoiceRole;
}

/** Which reading to correct: each role with where it is read now and what it reads there. */
async function pickRole(found: Found, now: PartProfile<ProfilePart>, input: ChoiceInput<ProfilePart>): Promise<ChoiceRole | undefined> {
  const choices = choicesOf(found.part);
  const pick = vscode.window.createQuickPick<RoleItem>();
  pick.title = partTitle(found.part);
  pick.placeholder = vscode.l10n.t('Which reading is wrong?');
  // As the field picks: the person may look at the log, or a notification may take focus, without losing the pick.
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  pick.items = choices.roles
    .filter((r) => r.follows === undefined)
    .map(({ role }) => {
      const at = choices.readAt(role, now, input);
      const value = at === undefined ? undefined : valueNow(found, at);
      return {
        role,
        label: roleWords(role, found).name,
        description:
          at === undefined
            ? vscode.l10n.t('not read')
            : vscode.l10n.t('read at {0}', untrustedText(at === '' ? vscode.l10n.t('the whole answer') : at, { maxChars: 120 })),
        detail: value === undefined ? undefined : untrustedText(value, { maxChars: 200 }),
      };
    });
  return pickOne(pick, (item) => item.role);
}

interface FieldItem extends vscode.QuickPickItem {
  /** Null for the item that leaves an optional role out. */
  field: ChoiceField | null;
}

/** The pick of a role's field: each with its path, a few of its values, and what it is read as now. */
async function pickField(
  found: Found,
  role: ChoiceRole,
  fields: readonly ChoiceField[],
  now: PartProfile<ProfilePart> | undefined,
  input: ChoiceInput<ProfilePart>,
  optional: boolean,
): Promise<ChoiceField | null | undefined> {
  const choices = choicesOf(found.part);
  const words = roleWords(role, found);
  // The roles each place is read as now (a misread shows here: the field read, and the one that should be).
  const readAs = new Map<string, string[]>();
  if (now !== undefined) {
    for (const { role: r } of choices.roles) {
      const at = choices.readAt(r, now, input);
      if (at !== undefined) readAs.set(at, [...(readAs.get(at) ?? []), roleWords(r, found).name.toLocaleLowerCase()]);
    }
  }
  const pick = vscode.window.createQuickPick<FieldItem>();
  pick.title = partTitle(found.part);
  pick.placeholder = words.question;
  pick.matchOnDescription = true;
  // The person may look at the log (what the service sent) before choosing: the pick stays open when focus leaves it.
  pick.ignoreFocusOut = true;
  const skip: FieldItem[] = optional && words.none !== undefined ? [{ field: null, label: words.none }] : [];
  pick.items = skip.concat(
    fields.map((field) => {
      const notes = [
        ...(field.count !== undefined ? [vscode.l10n.t('{0} models', field.count)] : []),
        ...(role === 'state' && field.types.includes('boolean') && !field.types.includes('text')
          ? [vscode.l10n.t('true when finished')]
          : []),
        ...(readAs.has(field.path) ? [vscode.l10n.t('read now as {0}', readAs.get(field.path)!.join(', '))] : []),
      ];
      const more = field.count !== undefined && field.count > field.samples.length ? ', …' : '';
      return {
        field,
        // Paths and values are the service's words: neutralised for the quick pick (no icons, links or markup).
        label: fieldLabel(field),
        description: notes.length > 0 ? notes.join(' · ') : undefined,
        detail: untrustedText(`${field.samples.join(', ')}${more}${field.says ? ` · ${field.says}` : ''}`, { maxChars: 200 }),
      };
    }),
  );
  return pickOne(pick, (item) => item.field);
}

function fieldLabel(field: ChoiceField): string {
  return untrustedText(field.path === '' ? vscode.l10n.t('the whole answer') : field.path, { maxChars: 120 });
}

/** What the answer holds at `path` now, as text (a stream's paths are within one of its events). */
function valueNow(found: Found, path: string): string | undefined {
  const segments = parsePath(path);
  if (!segments) return undefined;
  const records = found.part === 'stream' && Array.isArray(found.body) ? found.body : [found.body];
  for (const record of records) {
    const v = valueAt(record, segments);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return String(v);
  }
  return undefined;
}

interface StateItem extends vscode.QuickPickItem {
  state: Exclude<JobState, 'unknown'>;
}

/** What a state word no table reads means, as the person says. */
async function pickMeaning(word: string): Promise<StateItem['state'] | undefined> {
  const shownWord = untrustedText(word, { maxChars: 60 });
  const pick = vscode.window.createQuickPick<StateItem>();
  pick.title = vscode.l10n.t('What Does “{0}” Mean?', shownWord);
  pick.placeholder = vscode.l10n.t('The service says the job is “{0}”: what does that mean?', shownWord);
  pick.ignoreFocusOut = true;
  pick.items = [
    { state: 'queued', label: vscode.l10n.t('Waiting to start') },
    { state: 'running', label: vscode.l10n.t('Running') },
    { state: 'completed', label: vscode.l10n.t('Finished') },
    { state: 'failed', label: vscode.l10n.t('Failed') },
    { state: 'cancelled', label: vscode.l10n.t('Cancelled') },
  ];
  return pickOne(pick, (item) => item.state);
}

/** Shows `pick`; resolves with the value of the item accepted, or undefined when it was dismissed. */
async function pickOne<I extends vscode.QuickPickItem, T>(pick: vscode.QuickPick<I>, value: (item: I) => T): Promise<T | undefined> {
  const result = await interact<T>(pick, { back: false }, (finish) => [
    pick.onDidAccept(() => {
      const [item] = pick.selectedItems;
      if (item) finish({ action: 'next', value: value(item) });
    }),
  ]);
  return result.action === 'next' ? result.value : undefined;
}
