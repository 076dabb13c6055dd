// The machine a report was measured on, and how busy it was.
import { readFileSync } from 'node:fs';
import * as os from 'node:os';

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  os: string;
  date: string;
}

function osName(): string {
  try {
    const m = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (m) return `${m[1]} (${os.type()} ${os.release()})`;
  } catch {
    // not Linux
  }
  return `${os.type()} ${os.release()}`;
}

export function machine(): Machine {
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    ramGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: osName(),
    date: new Date().toISOString(),
  };
}

/** 1, 5 and 15 minute load averages, as `uptime` prints them. */
export function load(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
}
