// The pre-flight read as the finetune tool's confirmation shows it (issue 29): the wizard's read (preflight.ts, a
// child process) and its warnings (preflightWarnings.ts), bounded in time. The confirmation is what the person decides
// on, so it always shows: a read that fails, takes longer than a few seconds or is cancelled is said in it, never
// thrown or waited on. No vscode: the tool shows it, the unit tests call it directly.
import { l10n } from '../../l10n';
import { formatBytes } from '../../util/byteSize';
import { markdownLiteral } from '../../util/untrustedText';
import { preflightRead, type PreflightFile, type PreflightOptions, type PreflightResult } from './preflight';
import { describeCounts } from './preflightSummary';
import { preflightWarnings } from './preflightWarnings';

/** How long the confirmation waits for the read: a few seconds, as an agent's turn waits on it. */
export const CONFIRMATION_READ_MS = 5_000;

export type ConfirmationRead = { results: PreflightResult[] } | { failure: string };

export interface ConfirmationReadOptions {
  boundMs?: number;
  /** The confirmation was cancelled. */
  signal?: AbortSignal;
  read?: (files: readonly PreflightFile[], options?: PreflightOptions) => Promise<PreflightResult[]>;
}

/**
 * The files read as the wizard reads them, within `boundMs`: past it (or once `signal` aborts) the read is told to
 * stop and not waited for, so a reader that never answers cannot hold the confirmation.
 */
export function readForConfirmation(files: readonly PreflightFile[], options: ConfirmationReadOptions = {}): Promise<ConfirmationRead> {
  const boundMs = options.boundMs ?? CONFIRMATION_READ_MS;
  const read = options.read ?? preflightRead;
  const stop = new AbortController();
  return new Promise<ConfirmationRead>((resolve) => {
    const end = (outcome: ConfirmationRead): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCancel);
      stop.abort();
      resolve(outcome);
    };
    const onCancel = (): void => end({ failure: l10n.t('cancelled') });
    const timer = setTimeout(() => end({ failure: l10n.t('not read within {0} s', boundMs / 1000) }), boundMs);
    if (options.signal?.aborted) return onCancel();
    options.signal?.addEventListener('abort', onCancel, { once: true });
    // Through a promise: a reader that throws at once is said as one that fails later.
    Promise.resolve()
      .then(() => read(files, { signal: stop.signal, timeoutMs: boundMs }))
      .then(
        (results) => end({ results }),
        (e: unknown) => end({ failure: e instanceof Error ? e.message : String(e) }),
      );
  });
}

export interface ConfirmationPreflight {
  /** One markdown list item per file: its name, size and, once read, its pages or paragraphs and words. */
  list: string[];
  /** Markdown list items: the warnings, as the wizard's review gives them. */
  warnings: string[];
  /** Markdown: why the files were not read, when they were not. */
  note?: string;
}

/** What the confirmation says of the files; every name and message the workspace wrote is shown as its characters. */
export function confirmationPreflight(
  files: readonly { label: string; size: number }[],
  read: ConfirmationRead,
  numQs: number,
): ConfirmationPreflight {
  const results = 'results' in read ? read.results : [];
  const list = files.map((f, i) => {
    const r = results[i];
    const counts = r ? ` — ${describeCounts(r)}` : '';
    return `- ${markdownLiteral(f.label, 200, { path: true })} (${formatBytes(f.size)})${counts}`;
  });
  const warnings = preflightWarnings(results, 'results' in read ? numQs : undefined).map((w) => `- ${markdownLiteral(w.message, 400)}`);
  const note =
    'failure' in read
      ? markdownLiteral(l10n.t('The files were not read here ({0}): no pages, words or warnings.', read.failure), 400)
      : undefined;
  return { list, warnings, note };
}
