// What the key box says when the check of a key failed for a reason the person can act on in place: the next step
// depends on what failed. Without vscode, so it is tested under mocha against the emulator.
import { isApiError } from '../../api/errors';
import { redact } from '../../api/redact';
import { l10n } from '../../l10n';
import { classifyError } from '../../util/classifyError';

/** The box's message for a key check that failed with `error` (neither accepted nor unreachable). */
export function keyCheckRefusal(error: unknown): string {
  const said = redact(classifyError(error).message);
  // A proxy that wants credentials has not let the key reach the service: nothing about the key is known. The box
  // stays open (it keeps its focus) while the person sets the proxy, then Enter checks the same key again.
  if (isApiError(error) && error.kind === 'proxy') {
    return l10n.t('{0} Press Enter to check the key again once the proxy is set, or Escape to cancel.', said);
  }
  // The URL redirects: the key was never sent where the URL leads, so nothing is known of it either.
  if (isApiError(error) && error.kind === 'request' && 'redirectsTo' in error) {
    return l10n.t('{0} Press Escape, set the service URL (Configure Service URL…), then set the key again.', said);
  }
  return l10n.t('{0} Correct the key, or press Escape to cancel.', said);
}
