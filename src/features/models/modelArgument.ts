// Commands on a model accept a Models-view row, `{ modelName }` (notifications, tests, other commands),
// a plain string, or nothing (then a QuickPick over the live list).
import * as vscode from 'vscode';
import type { ModelInfo } from '../../api/types';
import type { ModelsNode, ModelsTreeProvider } from './modelsTree';
import { untrustedText } from '../../util/untrustedText';
import { typedItem, typedModelName } from '../../util/typedModelName';

export function modelNameFromArgument(arg: unknown): string | undefined {
  if (typeof arg === 'string' && arg.trim()) return arg.trim();
  if (arg && typeof arg === 'object') {
    const node = arg as Partial<ModelsNode> & { modelName?: unknown };
    if (node.type === 'model' && node.model) return node.model.name;
    if (typeof node.modelName === 'string' && node.modelName.trim()) return node.modelName.trim();
  }
  return undefined;
}

/** Asks for a model among the live list (optionally filtered), or a typed name when there is none; undefined when cancelled. */
export async function pickModel(
  models: ModelsTreeProvider,
  title: string,
  filter: (m: ModelInfo) => boolean = () => true,
): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { name: string }>();
  pick.title = title;
  pick.placeholder = vscode.l10n.t('Loading models…');
  pick.busy = true;
  pick.show();
  try {
    await models.load();
    const list = (models.models ?? []).filter(filter);
    pick.busy = false;
    pick.placeholder = list.length
      ? vscode.l10n.t('Choose a model')
      : models.models === undefined
        ? vscode.l10n.t('The model list could not be read: type a model name')
        : vscode.l10n.t('No models listed: type a model name');
    if (list.length === 0) {
      pick.onDidChangeValue((value) => {
        const name = typedModelName(value);
        pick.items = name ? [{ ...typedItem(name), name }] : [];
      });
    }
    pick.items = list.map((m) => ({
      label: untrustedText(m.name),
      name: m.name,
      description:
        m.kind === 'custom'
          ? untrustedText(m.baseModel ? vscode.l10n.t('custom · from {0}', m.baseModel) : vscode.l10n.t('custom'))
          : m.kind === 'base'
            ? vscode.l10n.t('base')
            : undefined,
    }));
    return await new Promise<string | undefined>((resolve) => {
      pick.onDidAccept(() => resolve(pick.selectedItems[0]?.name));
      pick.onDidHide(() => resolve(undefined));
    });
  } finally {
    pick.dispose();
  }
}
