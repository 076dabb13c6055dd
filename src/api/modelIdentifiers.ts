// A model record may carry several identifiers of one model (issue 36): the name the list leads with (the one requests
// use), and others beside it (a short id beside an ARN, a display name beside a resource name `tunedModels/…`). A name
// asked for, a job's made model or a kept name, means the model whichever of them it is.
import type { ModelInfo } from './types';

type Named = Pick<ModelInfo, 'name' | 'otherNames'>;

/** Every identifier of the model, the one the list leads with first. */
export function identifiersOf(m: Named): string[] {
  return m.otherNames?.length ? [m.name, ...m.otherNames] : [m.name];
}

/** Whether `name` is one of the model's identifiers. */
export function isNamed(m: Named, name: string): boolean {
  return m.name === name || (m.otherNames?.includes(name) ?? false);
}
