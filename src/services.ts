// What the composition root builds once and hands to every view and command.
import type * as vscode from 'vscode';
import type { JobStore } from './jobs/jobStore';
import type { UnreadableStarts } from './jobs/unreadableStarts';
import type { StartingJobs } from './jobs/startingJobs';
import type { LocalModels } from './local/localModels';
import type { Log } from './log';
import type { Session } from './connection/session';
import type { ServiceProfiles } from './connection/serviceProfiles';
import type { KnownModelNames } from './connection/knownModelNames';
import type { ComparisonRuns } from './features/evaluate/compare/comparisonRuns';

export interface Services {
  context: vscode.ExtensionContext;
  log: Log;
  session: Session;
  jobs: JobStore;
  /** The models known to run locally, and the runtime that runs them. */
  local: LocalModels;
  /** How each service's answers are read (kept per origin, the setting's first). */
  profiles: ServiceProfiles;
  /** Model names typed or made by jobs, per origin: offered when the model list cannot be read. */
  knownModels: KnownModelNames;
  /** Starts whose answer could not be read, kept in this window until the person says where the job's id is. */
  starts: UnreadableStarts;
  /** The starts of paid jobs under way, held one per service, key and model in every window (startingJobs.ts). */
  starting: StartingJobs;
  /** The comparisons on a person's questions this window runs now (the Jobs view and the status bar list them). */
  comparisons: ComparisonRuns;
}

/** View ids, as contributed in package.json. */
export const VIEW_MODELS = 'hostedReasoning.models';
export const VIEW_JOBS = 'hostedReasoning.jobs';
