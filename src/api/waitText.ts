// How long a wait is, in words a person reads at a glance ("12 s", "3 min", "2 h"). Shared by the client's messages
// and the poller's log, so both say the same thing; a value that is not a finite wait never prints as "Infinity s".

export function waitText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return 'a while';
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  const min = Math.round(s / 60);
  if (min < 90) return `${min} min`;
  return `${Math.round(min / 60)} h`;
}

/** A wait as it will be waited: tenths of a second below 10 s ("0.3 s", "1 s", "2.5 s"), else as waitText. */
export function exactWaitText(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0 || ms >= 10_000) return waitText(ms);
  return `${Math.ceil(ms / 100) / 10} s`;
}
