// What a person reads while the service makes a run wait (Retry-After on a rate limit), where they are looking: the
// playground's status line and Chat's progress line; and, when it refused again, when to retry. One wording for all,
// the clock in the person's locale (VS Code's display language: vscode.env.language in the extension host, the page's
// `<html lang>` in the playground). No vscode and no DOM: the playground page bundles it too.
import type { ServiceWait } from '../api/http';
import { waitText } from '../api/waitText';
import { l10n } from '../l10n';

/** "The service asked to wait 60 s; retrying at 14:02:00." */
export function serviceWaitText(wait: ServiceWait, locale: string | undefined): string {
  return l10n.t('The service asked to wait {0}; retrying at {1}.', waitText(wait.waitMs), clockTime(wait.until, locale));
}

/** "You can retry at 14:03:00." for an error that carried the service's wait, measured from `now`. */
export function retryAtText(retryAfterMs: number, now: number, locale: string | undefined): string {
  return l10n.t('You can retry at {0}.', clockTime(now + retryAfterMs, locale));
}

/** The time of day, to the second (waits are often under a minute), as the locale writes it. */
export function clockTime(epochMs: number, locale: string | undefined): string {
  const options: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit', second: '2-digit' };
  try {
    return new Intl.DateTimeFormat(locale || undefined, options).format(epochMs);
  } catch {
    // A language tag Intl does not know (VS Code's `qps-ploc` pseudo-locale): the runtime's own.
    return new Intl.DateTimeFormat(undefined, options).format(epochMs);
  }
}
