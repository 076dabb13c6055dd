// Byte counts in words people read: "12.3 MB", "12.3 of 45.6 MB".
// Binary units under the usual short names, because the size setting (`maxFileSizeMB`) counts 1 MB = 1024 * 1024
// bytes: a limit must read back as the number the user typed.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

/** "512 MB", "1.5 KB", "900 B". */
export function formatBytes(bytes: number): string {
  const u = unitFor(bytes);
  return `${scaled(bytes, u)} ${UNITS[u]}`;
}

/** "12.3 of 45.6 MB": both numbers in the unit of the total, so the pair reads at a glance. */
export function formatTransfer(done: number, total: number): string {
  const u = unitFor(total);
  return `${scaled(done, u)} of ${scaled(total, u)} ${UNITS[u]}`;
}

/**
 * A size refused for being over a limit, and the limit, in the limit's unit: "512.1 MB" against "512 MB". The size is
 * rounded up and the limit down, so a file one byte over never reads as equal to (or under) the limit.
 */
export function formatOverLimit(size: number, limit: number): { size: string; limit: string } {
  const u = unitFor(limit);
  const unit = UNITS[u];
  const per = 1024 ** u;
  // The epsilon keeps a limit like 1.1 MB (1153433.6 bytes in floating point) from reading as 1.09.
  const up = Math.ceil((size / per) * 10 - 1e-9) / 10;
  const down = Math.floor((limit / per) * 100 + 1e-9) / 100;
  return { size: `${decimal(up)} ${unit}`, limit: `${decimal(down)} ${unit}` };
}

function decimal(v: number): string {
  return String(Number(v.toFixed(2)));
}

function unitFor(bytes: number): number {
  let u = 0;
  let v = Math.max(0, bytes);
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return u;
}

function scaled(bytes: number, unit: number): string {
  const v = Math.max(0, bytes) / 1024 ** unit;
  if (unit === 0 || Number.isInteger(v) || v >= 100) return String(Math.round(v));
  return v.toFixed(1);
}
