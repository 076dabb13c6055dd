// The poller's request budget: at most REQUEST_BUDGET status requests in any span of one poll interval, all jobs
// together. A sliding window over the send times (not a counter reset per round), so the limit holds for every
// span of that length, also across rounds and across a manual refresh.

/**
 * Status requests allowed per poll interval, all jobs of one window together (each window polls the jobs it sees).
 * The service publishes no rate limits (spec §8); 20 per interval is 4 requests a second at the
 * default 5 s. With more active jobs than this they take turns, the one whose last answer is oldest first, so each is
 * asked every ceil(jobs / 20) intervals (100 jobs: every 25 s): someone following that many jobs does not need each
 * one checked every 5 s, and the service and the editor are spared the other 80 %. Up to 20 jobs nothing changes.
 */
export const REQUEST_BUDGET = 20;

export class SendWindow {
  /** Send times, oldest first (the poller's clock only moves forward). */
  private times: number[] = [];

  record(at: number): void {
    this.times.push(at);
  }

  /** Requests sent in (now - spanMs, now]; `now` is the present (older sends are forgotten). */
  count(now: number, spanMs: number): number {
    const old = this.firstWithin(now, spanMs);
    if (old > 0) this.times = this.times.slice(old);
    return this.times.length;
  }

  /**
   * The earliest time from `at` (the present or later) at which `room` more requests fit under `limit` in any span of
   * `spanMs`, if no other request is sent meanwhile: when enough of the oldest sends have left the span.
   */
  roomAt(at: number, spanMs: number, limit: number, room: number): number {
    const within = this.firstWithin(at, spanMs);
    const leaving = this.times.length - within - (limit - room);
    if (leaving <= 0) return at;
    return this.times[Math.min(within + leaving, this.times.length) - 1]! + spanMs;
  }

  /** Index of the first send in (at - spanMs, at]. */
  private firstWithin(at: number, spanMs: number): number {
    let i = 0;
    while (i < this.times.length && this.times[i]! <= at - spanMs) i++;
    return i;
  }
}
