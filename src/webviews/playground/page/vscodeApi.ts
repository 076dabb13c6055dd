// The webview's only link to the extension: typed posting (the protocol's messages, nothing else) and the state VS
// Code keeps for the page while it is hidden or the window reloads. No network, no secrets: the host does the I/O.
import type { WebviewToHost } from '../protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: () => VsCodeApi;

/** acquireVsCodeApi may be called once per page. */
const api = acquireVsCodeApi();

export function post(message: WebviewToHost): void {
  api.postMessage(message);
}

export function loadState(): unknown {
  return api.getState();
}

export function saveState(state: unknown): void {
  api.setState(state);
}
