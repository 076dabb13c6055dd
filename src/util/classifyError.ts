// The one answer to "what went wrong, and what can the user do about it": error notifications, the finetune recovery,
// the playground, the Models view's error rows and the poller all read a failure through this. Errors are read by
// shape (`kind`, `name`), not by class: the in-editor tests load the client from out/ while the extension runs it from
// its bundle, and a session error is matched without importing the session. No `vscode` import: tested under mocha.
import { API_ERROR_KINDS, FileChangedError, type ApiErrorKind } from '../api/errors';
import { COMMANDS } from '../contributions';
import { l10n } from '../l10n';

/** The client's kinds, plus a missing URL or key, plus anything else (a bug). */
export type ErrorKind = ApiErrorKind | 'notConfigured' | 'unexpected';

/**
 * A fix: the command that cures a kind of failure, its arguments (a place's name, never a path) and its button title,
 * read when shown (after main bound the translations).
 */
function fix<Id extends string>(id: Id, command: string, title: () => string, args: readonly unknown[] = []) {
  return {
    id,
    command,
    args,
    get title() {
      return title();
    },
  };
}

/** The commands a failure can offer besides Retry; `id` is the name the playground's webview knows each by. */
export const FIXES = {
  setApiKey: fix('setApiKey', COMMANDS.setApiKey, () => l10n.t('Set API Key')),
  configureBaseUrl: fix('configureBaseUrl', COMMANDS.configureBaseUrl, () => l10n.t('Configure Service URL')),
  showLog: fix('showLog', COMMANDS.showLog, () => l10n.t('Show Log')),
  openProxySettings: fix('openProxySettings', COMMANDS.openProxySettings, () => l10n.t('Open Proxy Settings')),
  // One command for every kind of answer: the argument names the place whose last answer it opens.
  chooseAnswerReading: fix('chooseAnswerReading', COMMANDS.chooseHowToRead, () => l10n.t('Choose How to Read…'), [{ place: 'answer' }]),
  chooseDownloadReading: fix('chooseDownloadReading', COMMANDS.chooseHowToRead, () => l10n.t('Choose How to Read…'), [
    { place: 'download' },
  ]),
};

export type Fix = (typeof FIXES)[keyof typeof FIXES];

export interface ErrorInfo {
  kind: ErrorKind;
  /** The same request may work later: the service's trouble (unreachable, slow, failing, busy), not the request's. */
  retryable: boolean;
  /** Fit to show, bounded: the service's own words when it gave any. */
  message: string;
  fix?: Fix;
}

const KINDS: ReadonlySet<string> = new Set(API_ERROR_KINDS);
const RETRYABLE: ReadonlySet<ErrorKind> = new Set<ErrorKind>(['network', 'timeout', 'server', 'rateLimit']);
// A timeout has no fix of its own: it may be a stream that went idle, which no setting cures. A refused request has
// none either: its message says what was refused (a DiskError too: the download offers its own Resume).
const FIX_FOR: Partial<Record<ErrorKind, Fix>> = {
  auth: FIXES.setApiKey,
  // A proxy that wants credentials: VS Code's proxy settings, never the key (the service has not seen the request).
  proxy: FIXES.openProxySettings,
  network: FIXES.configureBaseUrl,
  server: FIXES.showLog,
  contract: FIXES.showLog,
  integrity: FIXES.showLog,
  unexpected: FIXES.showLog,
};

const MAX_MESSAGE_CHARS = 2_000;

/** `context` ("Inference failed") leads the message of an unexpected error, whose own words rarely say what failed. */
export function classifyError(error: unknown, context?: string): ErrorInfo {
  const e =
    typeof error === 'object' && error !== null
      ? (error as { name?: unknown; kind?: unknown; message?: unknown; missing?: unknown; choosable?: unknown })
      : {};
  const said = typeof e.message === 'string' && e.message.trim() ? e.message : String(error);
  if (e.name === 'NotConfiguredError') {
    return {
      kind: 'notConfigured',
      retryable: false,
      message: clip(said),
      fix: e.missing === 'baseUrl' ? FIXES.configureBaseUrl : FIXES.setApiKey,
    };
  }
  const kind: ErrorKind = typeof e.kind === 'string' && KINDS.has(e.kind) ? (e.kind as ApiErrorKind) : 'unexpected';
  const message = clip(kind === 'unexpected' && context ? `${context}: ${said}` : said);
  // Its message says what to do: start again, so the file is checked anew (the same request would send stale sizes).
  if (error instanceof FileChangedError) return { kind, retryable: false, message };
  // An answer the client kept for the person to choose how to read (ChoosableAnswer): the choice is the fix.
  if (kind === 'contract' && (e.choosable === 'answer' || e.choosable === 'stream' || e.choosable === 'download')) {
    const choose = e.choosable === 'download' ? FIXES.chooseDownloadReading : FIXES.chooseAnswerReading;
    return { kind, retryable: false, message, fix: choose };
  }
  // The service URL redirects (ServiceUrlRedirectError): a refused request whose fix is the URL.
  if (kind === 'request' && typeof (error as { redirectsTo?: unknown }).redirectsTo === 'string') {
    return { kind, retryable: false, message, fix: FIXES.configureBaseUrl };
  }
  const fix = FIX_FOR[kind];
  return { kind, retryable: RETRYABLE.has(kind), message, ...(fix ? { fix } : {}) };
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}
