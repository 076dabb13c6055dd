// The playground's model list: the service's models as it lists them, then the local ones (by id and the name to
// show), which the page puts in a group of their own.
import { isLocalModelId, type ModelEntry } from '../protocol';

/** A file name can be long; the list shows a readable start. */
export const LOCAL_LABEL_CHARS = 120;

export function playgroundModelEntries(hosted: readonly ModelEntry[], local: readonly { id: string; label: string }[]): ModelEntry[] {
  return [
    ...hosted.filter((m) => !isLocalModelId(m.name)).map((m) => ({ name: m.name, kind: m.kind })),
    ...local.map((m) => ({
      name: m.id,
      kind: 'local' as const,
      label: m.label.length > LOCAL_LABEL_CHARS ? `${m.label.slice(0, LOCAL_LABEL_CHARS - 1)}…` : m.label,
    })),
  ];
}
