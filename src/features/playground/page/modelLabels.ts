// How the page names a model: a service model by its name, a local one as "Local · <name>" (its id means nothing to
// a person). The list from the host says which is which; a local id not in it yet (a panel opened by Run Locally,
// before the list arrives) is still named as local.
import { l10n } from '../../../l10n';
import { isLocalModelId, type ModelEntry } from '../protocol';

const labels = new Map<string, string>();

export function setModelLabels(models: readonly ModelEntry[]): void {
  labels.clear();
  for (const m of models) if (m.kind === 'local' && m.label) labels.set(m.name, m.label);
}

export function modelLabel(name: string): string {
  if (!isLocalModelId(name)) return name;
  const label = labels.get(name);
  return label ? l10n.t('Local · {0}', label) : l10n.t('Local model');
}
