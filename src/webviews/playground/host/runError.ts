// Whatever a run threw, as the panel shows it: classifyError's answer, its fix named as the webview knows it.
import { classifyError } from '../../../util/classifyError';
import type { RunErrorInfo } from '../protocol';

export function runErrorInfo(error: unknown): RunErrorInfo {
  const { fix, ...info } = classifyError(error, 'Inference failed');
  return fix ? { ...info, fix: fix.id } : info;
}
