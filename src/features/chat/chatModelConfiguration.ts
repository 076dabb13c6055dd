// The service's own knobs (spec 4.2: the budgets and RAG) in VS Code's model picker: each of our models carries a
// configuration schema, and the person's pick comes back with every request to that model (the provider's
// `modelConfiguration`, the participant request's own). Proposed API (`chatProvider`): typed here, not in
// @types/vscode 1.104, and read duck-typed; a VS Code without it (1.104) ignores the field and never sends a
// configuration, so the settings alone apply there.
//
// What 1.139 does with a schema (read in its workbench, seen in the UI tests): only properties with an `enum` are
// offered, a submenu each in the model's menu of *Chat: Manage Language Models*. One with `group: 'navigation'` would
// get a picker beside the model in the Chat input (the slot of Copilot's thinking effort), but in a Chat view of the
// usual width that picker takes the model name's place (tried: the input read "Steps as in Settings", no model), so
// no knob takes it. Each knob's first item is FROM_SETTINGS, which leaves the knob to the setting: the way back after
// a pick. No property has a `default`: an open Chat input keeps the configuration it first read for a model, defaults
// included, and keeps it while the defaults make it non-empty, so a pick made in *Manage Language Models* afterwards
// never reached that Chat's requests (seen in UI step 22: it asked with the setting's budget). Without defaults it
// reads nothing until a pick, and takes the first pick; it keeps that one too: a later pick (*Steps as in Settings*
// included) does not reach a Chat input that already took one (VS Code 1.139's input follows the model's
// configuration only while it holds none; seen in UI step 22's workbench with its store logged). Nothing here can
// change that: the request's configuration is the input's. Temperature stays a setting: a list of values would be a
// poor way to pick a real number.
import * as vscode from 'vscode';
import { FROM_SETTINGS } from './chatRequest';

/** One knob as VS Code's proposed `LanguageModelConfigurationSchema` property takes it. */
interface KnobSchema {
  readonly title: string;
  readonly description: string;
  readonly enum: readonly (string | number | boolean)[];
  readonly enumItemLabels: readonly string[];
}

export interface ModelConfigurationSchema {
  readonly properties: Readonly<Record<'sequentialBudget' | 'parallelBudget' | 'useRag', KnobSchema>>;
}

const SEQUENTIAL_BUDGETS = [1, 2, 4, 8, 16, 32, 64];
const PARALLEL_BUDGETS = [1, 2, 4, 8];

/** The schema every model of ours carries; its words are the person's language. */
export function modelConfigurationSchema(): ModelConfigurationSchema {
  const asInSettings = vscode.l10n.t('As in Settings');
  return {
    properties: {
      sequentialBudget: {
        title: vscode.l10n.t('Sequential Budget'),
        description: vscode.l10n.t('Reasoning steps in sequence (hostedReasoning.chat.sequentialBudget when as in Settings)'),
        enum: [FROM_SETTINGS, ...SEQUENTIAL_BUDGETS],
        enumItemLabels: [
          vscode.l10n.t('Steps as in Settings'),
          ...SEQUENTIAL_BUDGETS.map((n) => (n === 1 ? vscode.l10n.t('1 step') : vscode.l10n.t('{0} steps', n))),
        ],
      },
      parallelBudget: {
        title: vscode.l10n.t('Parallel Budget'),
        description: vscode.l10n.t('Reasoning paths side by side (hostedReasoning.chat.parallelBudget when as in Settings)'),
        enum: [FROM_SETTINGS, ...PARALLEL_BUDGETS],
        enumItemLabels: [asInSettings, ...PARALLEL_BUDGETS.map(String)],
      },
      useRag: {
        title: vscode.l10n.t('Retrieval (RAG)'),
        description: vscode.l10n.t('Whether the service retrieves documents (hostedReasoning.chat.useRag when as in Settings)'),
        enum: [FROM_SETTINGS, true, false],
        enumItemLabels: [asInSettings, vscode.l10n.t('On'), vscode.l10n.t('Off')],
      },
    },
  };
}

/** The configuration a request carries where the running VS Code sends one (the provider's options, a Chat request). */
export function modelConfigurationOf(carrier: object | undefined): unknown {
  return (carrier as { modelConfiguration?: unknown } | undefined)?.modelConfiguration;
}
