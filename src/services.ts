// What the composition root builds once and hands to every view and command.
import type * as vscode from 'vscode';
import type { JobStore } from './jobs/jobStore';
import type { LocalModels } from './local/localModels';
import type { Log } from './log';
import type { Session } from './connection/session';

export interface Services {
  context: vscode.ExtensionContext;
  log: Log;
  session: Session;
  jobs: JobStore;
  /** The models known to run locally, and the runtime that runs them. */
  local: LocalModels;
}

/** View ids, as contributed in package.json. */
export const VIEW_MODELS = 'hostedReasoning.models';
export const VIEW_JOBS = 'hostedReasoning.jobs';
