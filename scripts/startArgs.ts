// Command-line options of `npm start -- [options]`.

export type EditorChoice = 'auto' | 'server' | 'desktop';

export interface StartOptions {
  /** Interface VS Code's server build listens on. */
  readonly host: string;
  /** Its port; 0 picks a free one. */
  readonly port: number;
  /** The emulator's port; 0 picks a free one. Only the extension host connects to it, so it stays on loopback. */
  readonly emulatorPort: number;
  /** auto: desktop `code` when it is on PATH, else the server build. */
  readonly editor: EditorChoice;
  readonly help: boolean;
}

export const USAGE = `usage: npm start -- [options]

Starts the local emulator of the hosted service, writes a demo workspace (.demo/workspace) and opens VS Code with
the extension under development, connected to the emulator with the API key demo-key. Ctrl+C stops everything.

  --host <address>      where VS Code's server build listens (default 127.0.0.1; 0.0.0.0 for every interface)
  --port <n>            its port (default: a free one). Fix it when a port forward points at it.
  --emulator-port <n>   the emulator's port (default: a free one)
  --server              use VS Code's server build (opened in a browser) even when desktop \`code\` is on PATH
  --desktop             require desktop \`code\` on PATH
  -h, --help            this text`;

function portNumber(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < 0 || n > 65535) {
    throw new Error(`${flag} needs a port number (0-65535)`);
  }
  return n;
}

/** Throws an Error with a message for the person on anything it does not understand. */
export function parseStartArgs(argv: readonly string[]): StartOptions {
  let host = '127.0.0.1';
  let port = 0;
  let emulatorPort = 0;
  let editor: EditorChoice = 'auto';
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    // `--port=8080` and `--port 8080` both work.
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = equals < 0 ? arg : arg.slice(0, equals);
    const inline = equals < 0 ? undefined : arg.slice(equals + 1);
    const value = (): string | undefined => inline ?? argv[++i];
    switch (flag) {
      case '--host': {
        const h = value();
        if (!h) throw new Error('--host needs an address');
        host = h;
        break;
      }
      case '--port':
        port = portNumber(flag, value());
        break;
      case '--emulator-port':
        emulatorPort = portNumber(flag, value());
        break;
      case '--server':
        editor = 'server';
        break;
      case '--desktop':
        editor = 'desktop';
        break;
      case '-h':
      case '--help':
        help = true;
        break;
      default:
        throw new Error(`unknown option '${arg}'\n\n${USAGE}`);
    }
  }
  return { host, port, emulatorPort, editor, help };
}
