// The extension's log: a LogOutputChannel (levels chosen by the user with "Set Log Level"), with every line
// redacted so the API key and signed URLs never reach it.
import * as vscode from 'vscode';
import type { LogLevel } from './api/http';
import { redact } from './api/redact';

export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;

  constructor(name = 'Hosted Reasoning') {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  debug(message: string): void {
    this.channel.debug(redact(message));
  }
  info(message: string): void {
    this.channel.info(redact(message));
  }
  warn(message: string): void {
    this.channel.warn(redact(message));
  }
  error(message: string, err?: unknown): void {
    const detail = err && typeof err === 'object' && 'detail' in err && typeof err.detail === 'string' ? ` — ${err.detail}` : '';
    this.channel.error(redact(message + detail));
  }

  /** The shape the service client wants. */
  readonly sink = (level: LogLevel, message: string): void => {
    this[level](message);
  };

  show(): void {
    this.channel.show(true);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
