// Whatever a run threw, as the panel shows it: classifyError's answer, its fix named as the webview knows it. A local
// run's failure already says, in plain words naming the file, what happened and what to do.
import { classifyError } from '../../../util/classifyError';
import type { RunErrorInfo } from '../protocol';

export function runErrorInfo(error: unknown): RunErrorInfo {
  const local = localFailure(error);
  if (local) return { message: local.message, kind: 'unexpected', retryable: local.retryable, fix: 'showLog' };
  const { fix, ...info } = classifyError(error, 'Inference failed');
  // A run never downloads: only an answer's choice is offered here (any other is the log's).
  if (fix?.id === 'chooseDownloadReading') return { ...info, fix: 'showLog' };
  return fix ? { ...info, fix: fix.id } : info;
}

function localFailure(error: unknown): { message: string; retryable: boolean } | undefined {
  // By shape, like classifyError: the mocha tests and the bundle each have their own copy of the class.
  const e = typeof error === 'object' && error !== null ? (error as { name?: unknown; message?: unknown; retryable?: unknown }) : {};
  if (e.name !== 'LocalRunFailure' || typeof e.message !== 'string') return undefined;
  return { message: e.message, retryable: e.retryable === true };
}
