// What the command line writes: results on stdout (text for people, or with --json exactly one JSON document), and
// everything else on stderr: notes, warnings, progress. A progress bar only on a terminal (one line redrawn); in a
// log (CI) a line per change of state, so the log stays readable.
import type { Readable, Writable } from 'node:stream';
import { redact } from '../api/redact';

export interface CliIo {
  stdout: Writable;
  stderr: Writable & { isTTY?: boolean; columns?: number };
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const BAR_WIDTH = 24;

/**
 * Text the service or a file wrote, made inert for a terminal: control characters (an escape sequence could move the
 * cursor, retitle the window or hide what follows) become U+FFFD; line breaks and tabs stay.
 */
export function terminalText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what this replaces
  return text.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}

export class Output {
  private barShown = false;
  private lastLine: string | undefined;
  private lastWords: string | undefined;

  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
    private readonly verbose = false,
  ) {}

  /** A line for people on stderr (never part of the result). Service text is redacted. */
  note(message: string): void {
    this.clearBar();
    this.io.stderr.write(`${terminalText(redact(message))}\n`);
  }

  /** A line shown only with --verbose (the client's log: retries and waits). */
  debug(message: string): void {
    if (this.verbose) this.note(message);
  }

  /** The result: `human` for people, `document` with --json (one JSON document, the fields jsonOutput.ts documents). */
  result(human: string | undefined, document: unknown): void {
    this.clearBar();
    if (this.json) this.io.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    else if (human !== undefined) this.io.stdout.write(terminalText(human.endsWith('\n') ? human : `${human}\n`));
  }

  /** Answer text as it streams (ask): straight to stdout. */
  stream(text: string): void {
    this.io.stdout.write(terminalText(text));
  }

  /** Progress: a bar redrawn on a terminal, else a line when the state changes or another tenth is done. */
  progress(words: string, fraction?: number): void {
    if (this.io.stderr.isTTY) {
      const bar =
        fraction === undefined
          ? ''
          : `[${'#'.repeat(Math.round(clamp(fraction) * BAR_WIDTH)).padEnd(BAR_WIDTH, ' ')}] ${Math.floor(clamp(fraction) * 100)
              .toString()
              .padStart(3)}% `;
      const width = Math.max(20, (this.io.stderr.columns ?? 80) - 1);
      this.io.stderr.write(`\r\x1b[2K${(bar + terminalText(redact(words))).slice(0, width)}`);
      this.barShown = true;
      return;
    }
    // In a log: a line when the words change other than in their numbers (a state, a phase), or at each tenth, which
    // the line then says (without it, "Uploading" came four times in a row, saying nothing new).
    const key = `${words.replace(/[\d.,]+/g, '#')} ${fraction === undefined ? '' : Math.floor(clamp(fraction) * 10)}`;
    // The same words without a fraction (a job's last answer that no longer carries progress) say nothing new either.
    if (key === this.lastLine || (fraction === undefined && words === this.lastWords)) return;
    this.lastLine = key;
    this.lastWords = words;
    const percent = fraction === undefined ? '' : ` (${Math.floor(clamp(fraction) * 100)}%)`;
    this.io.stderr.write(`${terminalText(redact(words))}${percent}\n`);
  }

  clearBar(): void {
    if (!this.barShown) return;
    this.io.stderr.write('\r\x1b[2K');
    this.barShown = false;
  }
}

function clamp(x: number): number {
  return Math.min(1, Math.max(0, x));
}
