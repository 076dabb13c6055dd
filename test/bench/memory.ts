// Resident memory of this process, from /proc (Linux): the current RSS and the peak (VmHWM), which can be reset so
// a peak belongs to one measured operation.
import { readFileSync, writeFileSync } from 'node:fs';

function statusField(name: string): number | undefined {
  try {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function rssNow(): number {
  return statusField('VmRSS') ?? process.memoryUsage.rss();
}

export function rssPeak(): number | undefined {
  return statusField('VmHWM');
}

/** Resets VmHWM to the current RSS (`echo 5 > /proc/self/clear_refs`); false where that is not possible. */
export function resetPeak(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/** Polls RSS every `everyMs` ms as a second opinion on the peak (and the only one off Linux). */
export function sampleRss(everyMs = 50): { stop(): number } {
  let max = rssNow();
  const timer = setInterval(() => {
    max = Math.max(max, process.memoryUsage.rss());
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, process.memoryUsage.rss());
    },
  };
}
