// The kept model names (connection/knownModelNames.ts) as the pickers and Chat offer them: only when the model list
// cannot be read (an answer the extension cannot read, or no answer at all); a list that was read is the truth, and a
// refused key or a missing URL is fixed by the person, not worked around with old names. Each is marked in words with
// where it came from; the names are service or person text, so they are made inert like every name shown.
import * as vscode from 'vscode';
import { ContractError } from '../../api/errors';
import type { KnownModelName } from '../../connection/knownModelNames';
import type { Services } from '../../services';
import { untrustedText } from '../../util/untrustedText';
import { isUnreachable, type ModelsTreeProvider } from './modelsTree';

/** The list failed in a way a typed or kept name can get around. */
export function listUnreadable(error: unknown): boolean {
  return error instanceof ContractError || isUnreachable(error);
}

/** The kept names of the current service when its list (already loaded or failed) cannot be read; else none. */
export async function offeredKnownModels(services: Services, models: ModelsTreeProvider): Promise<KnownModelName[]> {
  if (models.models !== undefined || !listUnreadable(models.failure)) return [];
  const { origin } = await services.session.current();
  return origin ? services.knownModels.list(origin) : [];
}

/** "typed" or "made by a job": the words every picker and Chat use. */
export function knownSourceWords(known: KnownModelName): string {
  return known.source === 'job' ? vscode.l10n.t('made by a job') : vscode.l10n.t('typed');
}

/** A picker item for a kept name. */
export function knownModelItem(known: KnownModelName): vscode.QuickPickItem {
  return {
    label: untrustedText(known.name),
    description: `${knownSourceWords(known)} · ${new Date(known.at).toLocaleDateString()}`,
  };
}
