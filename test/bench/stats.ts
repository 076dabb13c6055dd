// Statistics and formatting shared by the benchmark figures. Every figure is the median of several runs, its spread,
// and its ratio to a reference measured in the same run, interleaved (ref, subject, ref, subject...) so drift of a
// shared, noisy machine hits both alike.

export interface Summary {
  n: number;
  median: number;
  min: number;
  max: number;
  q1: number;
  q3: number;
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
  };
}

export interface Paired {
  ref: number[];
  subject: number[];
  /** subject[i] / ref[i], pair by pair. */
  ratios: number[];
}

/**
 * Runs `warmup` unrecorded pairs, then `runs` pairs, reference first in each pair. `measure` returns the number
 * recorded (a time, a throughput...).
 */
export async function interleave(
  runs: number,
  ref: (i: number) => Promise<number>,
  subject: (i: number) => Promise<number>,
  warmup = 1,
  onPair?: (i: number, r: number, s: number) => void,
): Promise<Paired> {
  for (let i = 0; i < warmup; i++) {
    await ref(-1 - i);
    await subject(-1 - i);
  }
  const out: Paired = { ref: [], subject: [], ratios: [] };
  for (let i = 0; i < runs; i++) {
    const r = await ref(i);
    const s = await subject(i);
    out.ref.push(r);
    out.subject.push(s);
    out.ratios.push(s / r);
    onPair?.(i, r, s);
  }
  return out;
}

export function fmt(n: number, digits = 2): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(Math.min(digits, 1));
  return n.toFixed(digits);
}

export function range(s: Summary, unit = '', digits = 2): string {
  return `${fmt(s.min, digits)}–${fmt(s.max, digits)}${unit}`;
}

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

export function mib(bytes: number): string {
  return `${fmt(bytes / MiB, 1)} MiB`;
}

export function mbps(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}
