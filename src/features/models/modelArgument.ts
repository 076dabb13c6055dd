// Commands on a model accept a Models-view row, `{ modelName }` (notifications, tests, other commands),
// a plain string, or nothing (then a QuickPick over the live list).
import * as vscode from 'vscode';
import type { ModelInfo } from '../../api/types';
import type { ModelsNode, ModelsTreeProvider } from './modelsTree';
import { untrustedText } from '../../util/untrustedText';
import { typedItem, typedModelName } from '../../util/typedModelName';
import type { Services } from '../../services';
import { knownModelItem, offeredKnownModels } from './knownModelItems';

export function modelNameFromArgument(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg.trim()) return arg.trim();
  if (arg && typeof arg === 'object') {
    const node = arg as Partial<ModelsNode> & { modelName?: unknown };
    if (node.type === 'model' && node.model) return node.model.name;
    if (typeof node.modelName === 'string' && node.modelName.trim()) return node.modelName.trim();
  }
  return undefined;
}

/**
 * Asks for a model among the live list (optionally filtered), or a typed name when there is none; undefined when
 * cancelled. When the list cannot be read, the names kept for this service (typed before, or made by jobs) are offered
 * too. A name picked as typed is noted, and kept once the service accepts a request with it (KnownModelNames.accepted).
 */
export async function pickModel(
  services: Services,
  models: ModelsTreeProvider,
  title: string,
  filter: (m: ModelInfo) => boolean = () => true,
): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { name: string; typed?: boolean };
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = title;
  pick.placeholder = vscode.l10n.t('Loading models…');
  pick.busy = true;
  pick.show();
  try {
    await models.load();
    const list = (models.models ?? []).filter(filter);
    const kept: Item[] = (await offeredKnownModels(services, models)).map((k) => ({ ...knownModelItem(k), name: k.name }));
    pick.busy = false;
    pick.placeholder = list.length
      ? vscode.l10n.t('Choose a model')
      : models.models === undefined
        ? kept.length
          ? vscode.l10n.t('The model list could not be read: type a model name or choose one used before')
          : vscode.l10n.t('The model list could not be read: type a model name')
        : vscode.l10n.t('No models listed: type a model name');
    if (list.length === 0) {
      pick.onDidChangeValue((value) => {
        const name = typedModelName(value);
        const typed: Item[] = name && !kept.some((k) => k.name === name) ? [{ ...typedItem(name), name, typed: true }] : [];
        pick.items = [...typed, ...kept];
      });
    }
    pick.items = [
      ...list.map((m) => ({
        label: untrustedText(m.name),
        name: m.name,
        description:
          m.kind === 'custom'
            ? untrustedText(m.baseModel ? vscode.l10n.t('custom · from {0}', m.baseModel) : vscode.l10n.t('custom'))
            : m.kind === 'base'
              ? vscode.l10n.t('base')
              : undefined,
      })),
      ...(list.length === 0 ? kept : []),
    ];
    // Enter right after typing a name, before the picker lists it (a fast typist), takes the typed name.
    const typedNow = (): Item | undefined => {
      const name = list.length === 0 ? typedModelName(pick.value) : undefined;
      return name ? (kept.find((k) => k.name === name) ?? { ...typedItem(name), name, typed: true }) : undefined;
    };
    const picked = await new Promise<Item | undefined>((resolve) => {
      pick.onDidAccept(() => resolve(pick.selectedItems[0] ?? typedNow()));
      pick.onDidHide(() => resolve(undefined));
    });
    if (picked?.typed) services.knownModels.noteTyped(picked.name);
    return picked?.name;
  } finally {
    pick.dispose();
  }
}
