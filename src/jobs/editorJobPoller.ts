// The one poller for all active jobs of the current scope (JobPoller in jobPoller.ts: vscode-free, driven by plain
// mocha and the polling benchmark) wired to VS Code: the session, the job store, the Log, window focus, notify-once
// markers under globalStorage, with its news as vscode events.
//
// Nothing happens at construction but listener registration: start() does the first read of the job list (after
// a reload polling resumes from there), and with no active job there is no timer and no request.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Services } from '../services';
import { markerFiles } from './notifyOnce';
import { JobPoller, type JobFinished, type PollRound, type JobPollerOptions } from './jobPoller';

export type { JobFinished } from './jobPoller';

export class EditorJobPoller implements vscode.Disposable {
  private readonly finished = new vscode.EventEmitter<JobFinished>();
  /**
   * A job ended. `notify` is true in exactly one window (the one that observed the end and won the notify-once
   * marker); every window that followed the job gets the event, so each can refresh its Models view.
   */
  readonly onDidFinishJob = this.finished.event;

  private readonly poller: JobPoller;
  private readonly disposables: vscode.Disposable[] = [];

  /**
   * `listModels`: the Models view's own fetch of the model list (a finetune ends when its model is listed); the
   * poller asks it at most once per round, and only while a finetune runs.
   */
  constructor(services: Pick<Services, 'context' | 'log' | 'session' | 'jobs'>, listModels?: JobPollerOptions['listModels']) {
    const { context, log, session, jobs } = services;
    // The name older versions gave the folder (they kept poll leases there too): a window still running one of them
    // writes the same markers, so the two still announce an end once.
    const claimNotice = markerFiles(path.join(context.globalStorageUri.fsPath, 'poll-leases'));
    this.poller = new JobPoller({
      // The scope comes without the client: with no active job, activation never loads the client bundle. The
      // client is built on the first status request.
      connect: async () => {
        const scope = await session.scope();
        if (!scope) throw new Error('no usable service URL or API key');
        return {
          scope,
          source: {
            getFinetuneStatus: async (id, opts) => (await session.connect()).client.getFinetuneStatus(id, opts),
            getEvaluationStatus: async (id, opts) => (await session.connect()).client.getEvaluationStatus(id, opts),
            learnEndWord: (kind, word) =>
              void session.connect().then(
                ({ client }) => client.learnEndWord(kind, word),
                () => undefined,
              ),
          },
        };
      },
      jobs,
      claimNotice,
      listModels,
      intervalMs: () => session.settings().pollIntervalMs,
      log: (level, message) => log[level](message),
      onDidFinishJob: (e) => this.finished.fire(e),
      // Another window wrote progress of a job it polls: views here re-read storage.
      onExternalChange: () => jobs.refresh(),
    });
    this.disposables.push(
      this.finished,
      jobs.onDidChange(() => void this.poller.sync()),
      session.onDidChange(() => void this.poller.reconnect()),
      // Another window may have added, ended or removed jobs while this one was in the background.
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) jobs.refresh();
      }),
    );
  }

  /** Reads the job list and starts polling what is active. Call once after activation; safe to call again. */
  start(): Promise<void> {
    return this.poller.sync();
  }

  /** Polls every active job now (the Refresh button); resolves when the round is done. */
  pollNow(): Promise<PollRound | undefined> {
    return this.poller.pollNow();
  }

  /** Resolves when nothing is in flight (in-editor tests). */
  settled(): Promise<void> {
    return this.poller.settled();
  }

  /** Keys (`kind:id`) of the jobs being followed. */
  followed(): string[] {
    return this.poller.followed();
  }

  dispose(): void {
    this.poller.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
