// The extension's only way to show a notification or a progress notification. Messages routinely carry text the
// extension did not write (a model name, the service's error detail, a file name), and VS Code turns
// `[x](command:…)` in them into a link that runs when clicked: every message, its modal detail and every progress
// title and message go through untrustedText (and redact) here, whoever built them. ESLint forbids calling
// vscode.window.show*Message / withProgress anywhere else, so a new call site cannot skip this.
import * as vscode from 'vscode';
import { redact } from '../api/redact';
import { untrustedText } from './untrustedText';

type Item = string | vscode.MessageItem;
type Rest<T extends Item> = [vscode.MessageOptions, ...T[]] | T[];

/** What a notification may show: the message on one bounded line, a modal detail with its line breaks. */
export function shownMessage(message: string): string {
  return untrustedText(redact(message), { maxChars: 1000 });
}

function shownRest<T extends Item>(rest: Rest<T>): (vscode.MessageOptions | T)[] {
  const [first, ...others] = rest;
  if (!isOptions(first)) return rest;
  const options: vscode.MessageOptions = { ...first };
  if (options.detail !== undefined) options.detail = untrustedText(redact(options.detail), { multiline: true, maxChars: 4000 });
  return [options, ...others];
}

function isOptions(v: unknown): v is vscode.MessageOptions {
  return typeof v === 'object' && v !== null && !('title' in v);
}

type Show = (message: string, ...rest: unknown[]) => Thenable<unknown>;
function show<T extends Item>(fn: Show, message: string, rest: Rest<T>): Thenable<T | undefined> {
  return fn(shownMessage(message), ...shownRest(rest)) as Thenable<T | undefined>;
}

export function showErrorMessage<T extends Item>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  // eslint-disable-next-line no-restricted-syntax -- the one sanctioned call site
  return show(vscode.window.showErrorMessage, message, rest);
}

export function showWarningMessage<T extends Item>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  // eslint-disable-next-line no-restricted-syntax -- the one sanctioned call site
  return show(vscode.window.showWarningMessage, message, rest);
}

export function showInformationMessage<T extends Item>(message: string, ...rest: Rest<T>): Thenable<T | undefined> {
  // eslint-disable-next-line no-restricted-syntax -- the one sanctioned call site
  return show(vscode.window.showInformationMessage, message, rest);
}

/** vscode.window.withProgress with the title and every reported message made inert (a notification renders links). */
export function withProgress<R>(
  options: vscode.ProgressOptions,
  task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
): Thenable<R> {
  const safe = { ...options, title: options.title === undefined ? undefined : shownMessage(options.title) };
  // eslint-disable-next-line no-restricted-syntax -- the one sanctioned call site
  return vscode.window.withProgress(safe, (progress, token) =>
    task({ report: (v) => progress.report(v.message === undefined ? v : { ...v, message: shownMessage(v.message) }) }, token),
  );
}
