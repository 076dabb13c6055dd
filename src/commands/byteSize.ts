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
