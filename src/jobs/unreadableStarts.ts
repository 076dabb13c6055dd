// Starts whose answer named no job the extension could read (issue 27, item 2): the job may well exist on the service,
// so what was being started (the job record as it would have been written, without its id) is kept in this window
// with the service's answer, until the person says where the id is (Choose How to Read…). In memory only: the answer
// is the service's text, and a start forgotten at a reload is no worse than before.
import { ContractError } from '../api/errors';
import type { StartAnswer } from '../api/startedJob';
import type { Services } from '../services';
import type { JobRecord } from './jobRecord';
import type { LineageInput } from './lineage';

export interface UnreadableStart {
  kind: 'finetune' | 'evaluation';
  scope: string;
  origin: string;
  /** The service's answer, as the client handed it to the profile book. */
  body: unknown;
  answer: StartAnswer;
  /** The record the start would have written, without its id. */
  job: Omit<JobRecord, 'id' | 'lineage'>;
  /** A finetune's lineage, built once the id is known. */
  lineage?: Omit<LineageInput, 'jobId'>;
}

/** Most starts kept: a person retrying an unreadable start keeps the newest few, not every one. */
const MAX_KEPT = 10;

export class UnreadableStarts {
  private readonly kept: UnreadableStart[] = [];

  keep(start: UnreadableStart): void {
    this.kept.push(start);
    if (this.kept.length > MAX_KEPT) this.kept.shift();
  }

  /** The newest start of `scope` still to be followed. */
  latest(scope: string): UnreadableStart | undefined {
    for (let i = this.kept.length - 1; i >= 0; i--) if (this.kept[i]!.scope === scope) return this.kept[i];
    return undefined;
  }

  forget(start: UnreadableStart): void {
    const i = this.kept.indexOf(start);
    if (i >= 0) this.kept.splice(i, 1);
  }
}

/**
 * After a start failed: when it failed because its answer could not be read (the client handed it to the profile
 * book), keeps what was being started with that answer and resolves true (the message then offers the choice).
 */
export async function keepUnreadableStart(
  services: Services,
  error: unknown,
  start: Pick<UnreadableStart, 'kind' | 'scope' | 'job' | 'lineage'>,
): Promise<boolean> {
  if (!(error instanceof ContractError)) return false;
  const { origin } = await services.session.current();
  const kept = origin === undefined ? undefined : services.profiles.lastAnswer(origin, 'startedJob');
  if (origin === undefined || !kept?.unreadable || kept.context?.kind !== start.kind) return false;
  // Taken at once, with what was being started, so an answer is never paired with another start.
  services.profiles.forgetAnswer(origin, 'startedJob');
  services.starts.keep({ ...start, origin, body: kept.body, answer: kept.context.answer });
  return true;
}
