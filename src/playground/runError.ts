// Turns whatever a run threw into what the panel shows: the message (the service's own words when it gave any), the
// kind, whether trying again may help, and the one fix to offer. Errors are read by `kind` and `name`, not
// instanceof: the in-editor tests load the client from out/ while the extension runs it from the bundle, so the
// classes differ. No `vscode` import: tested under plain mocha.
import type { ApiErrorKind } from '../api/errors';
import type { ErrorFix, RunErrorInfo, RunErrorKind } from './protocol';

// Compile-time check that the protocol names every kind the client can raise.
const _kindsCovered: RunErrorKind = '' as ApiErrorKind;
void _kindsCovered;

const API_KINDS: ReadonlySet<string> = new Set<ApiErrorKind>([
  'auth',
  'rateLimit',
  'server',
  'network',
  'timeout',
  'cancelled',
  'request',
  'contract',
  'integrity',
]);

const RETRYABLE: ReadonlySet<RunErrorKind> = new Set<RunErrorKind>(['network', 'timeout', 'server', 'rateLimit']);

const FIX_FOR: Partial<Record<RunErrorKind, ErrorFix>> = {
  auth: 'setApiKey',
  network: 'configureBaseUrl',
  contract: 'showLog',
  integrity: 'showLog',
  unknown: 'showLog',
};

const MAX_MESSAGE_CHARS = 2_000;

export function runErrorInfo(error: unknown): RunErrorInfo {
  const e = typeof error === 'object' && error !== null ? (error as { name?: unknown; kind?: unknown; message?: unknown; missing?: unknown }) : {};
  const message = typeof e.message === 'string' && e.message.trim() ? e.message : String(error);
  if (e.name === 'NotConfiguredError') {
    return { message: clip(message), kind: 'notConfigured', retryable: false, fix: e.missing === 'baseUrl' ? 'configureBaseUrl' : 'setApiKey' };
  }
  const kind: RunErrorKind = typeof e.kind === 'string' && API_KINDS.has(e.kind) ? (e.kind as ApiErrorKind) : 'unknown';
  const text = kind === 'unknown' ? `Inference failed: ${message}` : message;
  const fix = FIX_FOR[kind];
  return { message: clip(text), kind, retryable: RETRYABLE.has(kind), ...(fix ? { fix } : {}) };
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}
