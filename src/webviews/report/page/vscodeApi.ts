// The report page's only link to the extension: typed posting (the protocol's messages, nothing else) and the state
// VS Code keeps for the page while it is hidden or the window reloads (the model's name, for the serializer).
import type { ReportPanelState, ReportToHost } from '../protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: () => VsCodeApi;

/** acquireVsCodeApi may be called once per page. */
const api = acquireVsCodeApi();

export function post(message: ReportToHost): void {
  api.postMessage(message);
}

export function saveState(state: ReportPanelState): void {
  api.setState(state);
}
