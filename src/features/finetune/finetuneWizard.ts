// The finetune wizard: base model (from the live list), new model name, numQs, mode, use case, then a summary that
// starts the job. One QuickInput at a time with step/totalSteps and a Back button; answers survive going back, and
// any answer can be changed from the summary. Escape cancels. Stays open when focus moves away (ignoreFocusOut):
// people look at their files while answering, and losing five answers to a stray click is worse than a sticky box.
import * as vscode from 'vscode';
import type { ModelInfo } from '../../api/types';
import type { FinetuneDefaults } from '../../connection/config';
import {
  DOCUMENTED_MODE,
  NUM_QS_MAX,
  NUM_QS_MIN,
  modeProblem,
  modelNameProblem,
  parseNumQs,
  suggestModelName,
  type FinetuneAnswers,
} from './finetuneAnswers';
import { redact } from '../../api/redact';
import { untrustedText } from '../../util/untrustedText';
import { typedItem, typedModelName } from '../../util/typedModelName';
import type { KnownModelName } from '../../connection/knownModelNames';
import { knownModelItem } from '../models/knownModelItems';
import { formatBytes } from '../../util/byteSize';
import type { CheckedFile } from './finetuneFiles';
import { interact, type StepResult } from '../../util/quickInputStep';
import type { PreflightResult } from './preflight';
import { preflightWarnings } from './preflightWarnings';
import { describeCounts } from './preflightSummary';

export type { FinetuneAnswers } from './finetuneAnswers';

export type WizardStep = 'baseModel' | 'modelName' | 'numQs' | 'mode' | 'useCase' | 'summary';
/** A quick-pick item's icon as an icon, not as `$(name)` in its label, which screen readers read out as a word. */
const icon = (name: string) => new vscode.ThemeIcon(name);

const STEPS: readonly WizardStep[] = ['baseModel', 'modelName', 'numQs', 'mode', 'useCase', 'summary'];

export interface WizardInput {
  files: readonly CheckedFile[];
  defaults: FinetuneDefaults;
  /** The live model list (called again on Retry). */
  loadModels: () => Promise<ModelInfo[]>;
  /** Names of models being created by jobs not finished yet: not in the list, but taken all the same. */
  pendingNames?: readonly string[];
  /** Answers to start from: after a refused upload the user edits what they typed instead of typing it again. */
  initial?: Partial<FinetuneAnswers>;
  /** The step to open first (the summary, when editing answers the service refused). */
  startAt?: WizardStep;
  /** The names kept for this service, offered when the list failed in a way they get around (else none). */
  keptModels?: (failure: unknown) => Promise<readonly KnownModelName[]>;
  /** A base model was typed, not picked from a list: kept once the service accepts the finetune. */
  onTyped?: (name: string) => void;
  /**
   * The pre-flight read of the files (issue 29), started when the review is first reached and shown there: counts per
   * file and warnings. A failed read shows its reason; it never blocks the finetune.
   */
  preflight?: () => Promise<PreflightResult[]>;
  /** *Preview the Text*: opens the text the read found. */
  previewText?: (results: readonly PreflightResult[]) => Promise<unknown>;
}

type Goto = { action: 'goto'; step: WizardStep };

/** Runs the wizard; the answers, or undefined when the user cancelled. */
export async function runFinetuneWizard(input: WizardInput): Promise<FinetuneAnswers | undefined> {
  const wizard = new Wizard(input);
  return wizard.run();
}

class Wizard {
  private readonly answers: Partial<FinetuneAnswers>;
  private models: Promise<ModelInfo[]>;
  private readonly title: string;
  /** The pre-flight read, once started; its results (or why it failed) once done. */
  private preflight?: Promise<void>;
  private preflightResults?: PreflightResult[];
  private preflightFailure?: string;

  constructor(private readonly input: WizardInput) {
    this.answers = { ...input.initial };
    this.models = this.load();
    const n = input.files.length;
    this.title = n === 1 ? vscode.l10n.t('Create Finetuned Model from 1 file') : vscode.l10n.t('Create Finetuned Model from {0} files', n);
  }

  async run(): Promise<FinetuneAnswers | undefined> {
    let index = Math.max(0, STEPS.indexOf(this.input.startAt ?? 'baseModel'));
    // Set when a step was opened from the summary: accepting it (or Back) returns there instead of walking the steps.
    let editingFromSummary = false;
    for (;;) {
      const step = STEPS[index] ?? 'summary';
      const result = await this.show(step, index > 0 || editingFromSummary);
      if (result.action === 'cancel') return undefined;
      if (result.action === 'goto') {
        index = STEPS.indexOf(result.step);
        editingFromSummary = true;
        continue;
      }
      if (result.action === 'back') {
        index = editingFromSummary ? STEPS.length - 1 : index - 1;
        if (index === STEPS.length - 1) editingFromSummary = false;
        continue;
      }
      if (step === 'summary') {
        const done = this.complete();
        if (done) return done;
        index = STEPS.findIndex((s) => this.missing(s));
        continue;
      }
      index = editingFromSummary ? STEPS.length - 1 : index + 1;
      if (index === STEPS.length - 1) editingFromSummary = false;
    }
  }

  private show(step: WizardStep, back: boolean): Promise<StepResult<unknown> | Goto> {
    switch (step) {
      case 'baseModel':
        return this.baseModel(back);
      case 'modelName':
        return this.modelName();
      case 'numQs':
        return this.numQs();
      case 'mode':
        return this.mode();
      case 'useCase':
        return this.useCase();
      case 'summary':
        return this.summary();
    }
  }

  private load(): Promise<ModelInfo[]> {
    const p = this.input.loadModels();
    p.catch(() => undefined); // observed by the steps that need it; never an unhandled rejection
    return p;
  }

  /** Title and "step n of 6" shared by every input of a step. */
  private frame(input: vscode.QuickInput, step: WizardStep): void {
    input.title = step === 'summary' ? vscode.l10n.t('{0}: review', this.title) : this.title;
    input.step = STEPS.indexOf(step) + 1;
    input.totalSteps = STEPS.length;
    input.ignoreFocusOut = true;
  }

  // ------------------------------------------------------------------------------------------------ 1 base model

  /** `back`: only when opened from the summary; as the first step there is nowhere to go back to. */
  private async baseModel(back: boolean): Promise<StepResult<string>> {
    type Item = vscode.QuickPickItem & { model?: string; retry?: boolean; typed?: boolean };
    const qp = vscode.window.createQuickPick<Item>();
    this.frame(qp, 'baseModel');
    qp.matchOnDescription = true;
    let closed = false;

    const fill = async (): Promise<void> => {
      qp.busy = true;
      qp.enabled = false;
      qp.items = [];
      qp.placeholder = vscode.l10n.t('Loading the models this API key can use…');
      let models: ModelInfo[] | undefined;
      let failure: string | undefined;
      let kept: Item[] = [];
      try {
        models = await this.models;
      } catch (e) {
        failure = e instanceof Error ? e.message : String(e);
        kept = ((await this.input.keptModels?.(e)) ?? []).map((k) => ({ ...knownModelItem(k), model: k.name }));
      }
      if (closed) return; // cancelled while loading: the input is gone
      qp.busy = false;
      qp.enabled = true;
      typing = false;
      if (models) {
        const items = modelItems(models);
        if (items.length === 0) {
          typing = true;
          qp.items = [
            { label: vscode.l10n.t("No models listed: type the base model's name"), iconPath: icon('info'), alwaysShow: true },
            retryItem(),
          ];
          fixed = qp.items;
        } else {
          qp.items = items;
          const current = items.find((i) => i.model !== undefined && i.model === this.answers.baseModel);
          if (current) qp.activeItems = [current];
        }
        qp.placeholder = vscode.l10n.t('Choose the base model to tune');
      } else {
        qp.items = [
          {
            label: vscode.l10n.t('Cannot load the models'),
            iconPath: icon('error'),
            detail: failure === undefined ? undefined : untrustedText(redact(failure)),
            alwaysShow: true,
          },
          ...kept,
          retryItem(),
        ];
        typing = true;
        fixed = qp.items;
        qp.placeholder = vscode.l10n.t("The model list could not be read: type the base model's name");
      }
    };
    // With no list to choose from, a typed name is offered as an item of its own.
    let typing = false;
    let fixed: readonly Item[] = [];
    const retryItem = (): Item => ({ label: vscode.l10n.t('Retry'), iconPath: icon('refresh'), retry: true, alwaysShow: true });

    return interact<string>(qp, { back }, (finish) => {
      void fill();
      return [
        { dispose: () => (closed = true) },
        qp.onDidChangeValue((value) => {
          if (!typing) return;
          const name = typedModelName(value);
          qp.items = name && !fixed.some((i) => i.model === name) ? [{ ...typedItem(name), model: name, typed: true }, ...fixed] : fixed;
        }),
        qp.onDidAccept(() => {
          const [picked] = qp.selectedItems;
          if (picked?.retry) {
            this.models = this.load();
            void fill();
          } else if (picked?.model !== undefined) {
            if (picked.typed) this.input.onTyped?.(picked.model);
            this.answers.baseModel = picked.model;
            finish({ action: 'next', value: picked.model });
          }
        }),
      ];
    });
  }

  // ------------------------------------------------------------------------------------------------ 2 name

  private modelName(): Promise<StepResult<string>> {
    const box = vscode.window.createInputBox();
    this.frame(box, 'modelName');
    box.prompt = vscode.l10n.t('Name of the new model: letters, digits, ".", "_" and "-", at most 64 characters');
    // Until the list arrives only pending jobs' names are known; the box shows busy and re-checks when it does.
    let taken: string[] = [...(this.input.pendingNames ?? [])];
    const suggest = (): string => suggestModelName(this.input.files[0]?.label, taken);
    let suggested = this.answers.modelName === undefined ? suggest() : undefined;
    box.value = this.answers.modelName ?? suggested ?? '';
    box.validationMessage = modelNameProblem(box.value, taken);
    box.busy = true;
    let closed = false;
    void this.models
      .then((list) => list.map((m) => m.name))
      .catch(() => [] as string[])
      .then((listed) => {
        if (closed) return;
        taken = [...listed, ...taken];
        box.busy = false;
        if (suggested !== undefined && box.value === suggested) {
          // The user has not touched our suggestion: keep it free of the names we just learned.
          suggested = suggest();
          box.value = suggested;
        }
        box.validationMessage = modelNameProblem(box.value, taken);
      });
    return interact<string>(box, { back: true }, (finish) => [
      { dispose: () => (closed = true) },
      box.onDidChangeValue((v) => {
        box.validationMessage = modelNameProblem(v, taken);
      }),
      box.onDidAccept(() => {
        const problem = modelNameProblem(box.value, taken);
        box.validationMessage = problem;
        if (problem) return;
        this.answers.modelName = box.value;
        finish({ action: 'next', value: box.value });
      }),
    ]);
  }

  // ------------------------------------------------------------------------------------------------ 3 numQs

  private numQs(): Promise<StepResult<number>> {
    const box = vscode.window.createInputBox();
    this.frame(box, 'numQs');
    box.prompt = vscode.l10n.t('How many questions to generate from the files ({0} to {1})', NUM_QS_MIN, NUM_QS_MAX);
    box.value = String(this.answers.numQs ?? this.input.defaults.numQs);
    const problemOf = (v: string): string | undefined => {
      const parsed = parseNumQs(v);
      return 'problem' in parsed ? parsed.problem : undefined;
    };
    return interact<number>(box, { back: true }, (finish) => [
      box.onDidChangeValue((v) => {
        box.validationMessage = problemOf(v);
      }),
      box.onDidAccept(() => {
        const parsed = parseNumQs(box.value);
        if ('problem' in parsed) {
          box.validationMessage = parsed.problem;
          return;
        }
        this.answers.numQs = parsed.value;
        finish({ action: 'next', value: parsed.value });
      }),
    ]);
  }

  // ------------------------------------------------------------------------------------------------ 4 mode

  private async mode(): Promise<StepResult<string>> {
    for (;;) {
      const picked = await this.pickMode();
      if (picked.action !== 'next' || picked.value !== OTHER) return picked;
      // "Other…": free text on the same step; Back returns to the list instead of the previous step.
      const typed = await this.typeMode();
      if (typed.action === 'back') continue;
      return typed;
    }
  }

  private pickMode(): Promise<StepResult<string>> {
    type Item = vscode.QuickPickItem & { mode: string };
    const { defaults } = this.input;
    const items: Item[] = [{ label: DOCUMENTED_MODE, description: vscode.l10n.t('documented'), mode: DOCUMENTED_MODE }];
    if (defaults.mode !== DOCUMENTED_MODE) {
      items.push({ label: untrustedText(defaults.mode), description: vscode.l10n.t('from settings'), mode: defaults.mode });
    }
    const previous = this.answers.mode;
    if (previous !== undefined && !items.some((i) => i.mode === previous)) {
      items.push({ label: untrustedText(previous), description: vscode.l10n.t('entered before'), mode: previous });
    }
    items.push({
      label: vscode.l10n.t('Other…'),
      description: vscode.l10n.t('type a mode the service accepts'),
      mode: OTHER,
      alwaysShow: true,
    });

    const qp = vscode.window.createQuickPick<Item>();
    this.frame(qp, 'mode');
    qp.placeholder = vscode.l10n.t('Mode of the finetuning job');
    qp.items = items;
    const active = items.find((i) => i.mode === (previous ?? defaults.mode));
    if (active) qp.activeItems = [active];
    return interact<string>(qp, { back: true }, (finish) => [
      qp.onDidAccept(() => {
        const [picked] = qp.selectedItems;
        if (!picked) return;
        if (picked.mode !== OTHER) this.answers.mode = picked.mode;
        finish({ action: 'next', value: picked.mode });
      }),
    ]);
  }

  private typeMode(): Promise<StepResult<string>> {
    const box = vscode.window.createInputBox();
    this.frame(box, 'mode');
    box.prompt = vscode.l10n.t('Mode to send to the service');
    // Prefill only a mode typed here before; one picked from the list would just have to be deleted.
    const typedBefore =
      this.answers.mode !== undefined && this.answers.mode !== DOCUMENTED_MODE && this.answers.mode !== this.input.defaults.mode;
    box.value = typedBefore ? (this.answers.mode ?? '') : '';
    return interact<string>(box, { back: true }, (finish) => [
      box.onDidChangeValue((v) => {
        box.validationMessage = v === '' ? undefined : modeProblem(v);
      }),
      box.onDidAccept(() => {
        const problem = modeProblem(box.value);
        box.validationMessage = problem;
        if (problem) return;
        this.answers.mode = box.value.trim();
        finish({ action: 'next', value: this.answers.mode });
      }),
    ]);
  }

  // ------------------------------------------------------------------------------------------------ 5 use case

  private useCase(): Promise<StepResult<string>> {
    const box = vscode.window.createInputBox();
    this.frame(box, 'useCase');
    box.prompt = vscode.l10n.t('What the model is for (optional): it guides the questions generated');
    box.placeholder = vscode.l10n.t('e.g. Answer employee questions about the travel policy');
    box.value = this.answers.useCase ?? this.input.defaults.useCase;
    return interact<string>(box, { back: true }, (finish) => [
      box.onDidAccept(() => {
        this.answers.useCase = box.value.trim();
        finish({ action: 'next', value: this.answers.useCase });
      }),
    ]);
  }

  // ------------------------------------------------------------------------------------------------ 6 summary

  private summary(): Promise<StepResult<FinetuneAnswers> | Goto> {
    type Item = vscode.QuickPickItem & { start?: boolean; edit?: WizardStep; preview?: boolean };
    const a = this.answers;
    const { files } = this.input;
    const total = files.reduce((sum, f) => sum + f.size, 0);
    if (this.input.preflight && !this.preflight) {
      this.preflight = this.input.preflight().then(
        (results) => void (this.preflightResults = results),
        (e: unknown) => void (this.preflightFailure = e instanceof Error ? e.message : String(e)),
      );
    }
    const reading = (): boolean => this.preflight !== undefined && !this.preflightResults && this.preflightFailure === undefined;
    const start: Item = {
      label: vscode.l10n.t('Start Finetuning'),
      iconPath: icon('rocket'),
      description:
        files.length === 1
          ? vscode.l10n.t('upload 1 file, {0}', formatBytes(total))
          : vscode.l10n.t('upload {0} files, {1}', files.length, formatBytes(total)),
      start: true,
    };
    const build = (): Item[] => {
      const results = this.preflightResults;
      const warnings = results ? preflightWarnings(results, a.numQs) : [];
      const counts = (i: number): string => {
        const r = results?.[i];
        if (r) return ` — ${untrustedText(describeCounts(r))}`;
        return reading() ? vscode.l10n.t(' — reading…') : '';
      };
      return [
        start,
        ...(warnings.length > 0
          ? [
              { label: vscode.l10n.t('Before you pay — {0} to check', warnings.length), kind: vscode.QuickPickItemKind.Separator },
              ...warnings.map((w) => ({ label: untrustedText(w.message), iconPath: icon('warning') })),
            ]
          : []),
        { label: vscode.l10n.t('Answers — pick one to change it'), kind: vscode.QuickPickItemKind.Separator },
        ...(
          [
            ['baseModel', vscode.l10n.t('Base model'), 'layers'],
            ['modelName', vscode.l10n.t('New model name'), 'tag'],
            ['numQs', vscode.l10n.t('Questions to generate'), 'list-ordered'],
            ['mode', vscode.l10n.t('Mode'), 'settings-gear'],
          ] as const
        ).map(([edit, label, iconName]) => ({
          label,
          iconPath: icon(iconName),
          description: a[edit] !== undefined ? untrustedText(String(a[edit])) : vscode.l10n.t('(not chosen)'),
          edit,
        })),
        {
          label: vscode.l10n.t('Use case'),
          iconPath: icon('note'),
          description: a.useCase ? untrustedText(a.useCase) : vscode.l10n.t('(none)'),
          edit: 'useCase',
        },
        { label: vscode.l10n.t('Files — {0}, {1}', files.length, formatBytes(total)), kind: vscode.QuickPickItemKind.Separator },
        ...files.map((f, i) => ({
          label: untrustedText(f.label, { path: true, maxChars: 100 }),
          iconPath: icon('file'),
          description: `${f.kind.toUpperCase()}, ${formatBytes(f.size)}${counts(i)}`,
        })),
        ...(this.preflightFailure !== undefined
          ? [
              {
                label: vscode.l10n.t('The files could not be read here: {0}', untrustedText(this.preflightFailure)),
                iconPath: icon('info'),
              },
            ]
          : []),
        ...(results && this.input.previewText
          ? [
              {
                label: vscode.l10n.t('Preview the Text'),
                iconPath: icon('eye'),
                description: vscode.l10n.t('what the service will read'),
                preview: true,
              },
            ]
          : []),
      ];
    };
    const qp = vscode.window.createQuickPick<Item>();
    this.frame(qp, 'summary');
    qp.placeholder = vscode.l10n.t('Start finetuning, or pick an answer to change it');
    qp.matchOnDescription = true;
    qp.items = build();
    qp.activeItems = [start];
    qp.busy = reading();
    let closed = false;
    return interact<FinetuneAnswers | Goto>(qp, { back: true }, (finish) => {
      void this.preflight?.then(() => {
        if (closed) return;
        qp.busy = false;
        const active = qp.activeItems[0];
        qp.items = build();
        // Keep the person's place: the same item, found by its label, or Start.
        qp.activeItems = [qp.items.find((i) => i.label === active?.label) ?? start];
      });
      return [
        { dispose: () => (closed = true) },
        qp.onDidAccept(() => {
          const [picked] = qp.selectedItems;
          if (picked?.edit) {
            finish({ action: 'next', value: { action: 'goto', step: picked.edit } });
          } else if (picked?.start) {
            const done = this.complete();
            if (done) finish({ action: 'next', value: done });
            else finish({ action: 'next', value: { action: 'goto', step: STEPS.find((s) => this.missing(s)) ?? 'baseModel' } });
          } else if (picked?.preview && this.preflightResults) {
            // The list stays open (ignoreFocusOut) beside the preview.
            void this.input.previewText?.(this.preflightResults);
          }
          // A file or warning line: nothing to do; the list stays open.
        }),
      ];
    }).then((r) => (r.action === 'next' && 'action' in r.value ? r.value : (r as StepResult<FinetuneAnswers>)));
  }

  private missing(step: WizardStep): boolean {
    return step !== 'summary' && this.answers[step] === undefined;
  }

  private complete(): FinetuneAnswers | undefined {
    return STEPS.some((s) => this.missing(s)) ? undefined : ({ ...this.answers } as FinetuneAnswers);
  }
}

/** Sentinel for the "Other…" mode item (not a string a user could type: it has a NUL). */
const OTHER = '\u0000other';

/** Base models first, then models of unknown kind, then custom ones; alphabetical within each group. */
function modelItems(models: readonly ModelInfo[]): (vscode.QuickPickItem & { model?: string })[] {
  const groups: [ModelInfo['kind'], string][] = [
    ['base', 'Base models'],
    ['unknown', 'Models'],
    ['custom', 'Your finetuned models'],
  ];
  const out: (vscode.QuickPickItem & { model?: string })[] = [];
  for (const [kind, heading] of groups) {
    const ofKind = models.filter((m) => m.kind === kind).sort((a, b) => a.name.localeCompare(b.name));
    if (ofKind.length === 0) continue;
    out.push({ label: heading, kind: vscode.QuickPickItemKind.Separator });
    for (const m of ofKind) {
      out.push({
        label: untrustedText(m.name),
        description: kind === 'custom' && m.baseModel ? untrustedText(vscode.l10n.t('from {0}', m.baseModel)) : undefined,
        model: m.name,
      });
    }
  }
  return out;
}
