// What the user reads when a local run cannot start or fails: plain sentences naming the file, one per kind of
// failure, each with what to do next. Shared by Run Locally and the playground.
import * as vscode from 'vscode';
import type { LocalRuntimeErrorKind } from './localRuntime';

/** The universal package has everything but the runtime: the one thing the user can do about it. */
export function platformPackageMessage(): string {
  return vscode.l10n.t(
    'Running models locally needs the Hosted Reasoning package built for your platform: install the .vsix whose name ends with your platform (such as linux-x64).',
  );
}

/** `detail` is the runtime's own words, kept for a load failure (it says what is wrong with the file). */
export function localRunFailureMessage(kind: LocalRuntimeErrorKind, fileName: string, detail: string): string {
  switch (kind) {
    case 'unavailable':
      return platformPackageMessage();
    case 'load-failed':
      return vscode.l10n.t('{0} could not be loaded as a model: {1}', fileName, detail);
    case 'load-timeout':
      return vscode.l10n.t(
        '{0} did not load in time and the local runtime was stopped: check that it is a complete GGUF model, or allow more time in the setting hostedReasoning.local.loadTimeoutSeconds.',
        fileName,
      );
    case 'memory-limit':
      return vscode.l10n.t(
        'The local runtime passed its memory limit while running {0} and was stopped: choose a smaller model, or raise hostedReasoning.local.memoryLimitMB.',
        fileName,
      );
    case 'crashed':
      return vscode.l10n.t('The local runtime stopped unexpectedly while running {0}; the next run starts it again.', fileName);
  }
}
