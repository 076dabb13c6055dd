// The reference of the token-latency figure (test/bench/figures/latency.ts), loaded in the extension host by its
// helper extension: a bare webview that, on Run, streams the answer from the emulator over plain node:http and posts
// every token to its page the moment its SSE event is read, no batching. The page appends each token to one <pre>,
// lays it out at most once a frame, and reports to the same observer seam as the playground
// (src/features/playground/latencyObserver.ts), so the figure measures both alike. Its elements carry the playground's test ids.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import * as vscode from 'vscode';
import { OBSERVER_GLOBAL } from '../../src/features/playground/latencyObserver';
import { BARE_COMMAND, BARE_TITLE, EMULATOR_KEY_ENV, EMULATOR_URL_ENV } from './latencyShared';
const ROUTE = '/cr/provider_predict_platform_base_oss';

export function activate(context: vscode.ExtensionContext): void {
  let panel: vscode.WebviewPanel | undefined;
  let runs = 0;
  context.subscriptions.push(
    vscode.commands.registerCommand(BARE_COMMAND, (modelName: unknown) => {
      if (panel) {
        panel.reveal();
        return;
      }
      const p = vscode.window.createWebviewPanel('hrBenchBare', BARE_TITLE, vscode.ViewColumn.Active, {
        enableScripts: true,
        retainContextWhenHidden: true,
      });
      panel = p;
      p.onDidDispose(() => (panel = undefined));
      p.webview.onDidReceiveMessage((m: { type?: string }) => {
        if (m.type === 'run') stream(p.webview, `bare-${++runs}`, typeof modelName === 'string' ? modelName : 'oss-reasoner-8b');
      });
      p.webview.html = page(randomBytes(18).toString('base64'));
    }),
  );
}

function stream(webview: vscode.Webview, runId: string, modelName: string): void {
  const post = (m: object) => void webview.postMessage({ runId, ...m });
  post({ type: 'start' });
  const body = JSON.stringify({
    prompt: 'bare',
    query_only: 'bare',
    model_name: modelName,
    stream: true,
    use_rag: false,
    sequential_budget: 1,
    parallel_budget: 1,
    temperature: 0.7,
  });
  const req = http.request(
    `${process.env[EMULATOR_URL_ENV] ?? ''}${ROUTE}`,
    {
      method: 'POST',
      headers: {
        'X-API-Key': process.env[EMULATOR_KEY_ENV] ?? '',
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        'Content-Length': Buffer.byteLength(body),
      },
    },
    (res) => {
      res.setEncoding('utf8');
      let pending = '';
      let seq = 0;
      res.on('data', (c: string) => {
        pending += c;
        let at: number;
        while ((at = pending.indexOf('\n\n')) !== -1) {
          const event = pending.slice(0, at);
          pending = pending.slice(at + 2);
          if (event.startsWith('data: {')) {
            post({ type: 'token', seq: seq++, text: (JSON.parse(event.slice(6)) as { token: string }).token });
          }
        }
      });
      res.on('end', () => post({ type: 'done' }));
      res.on('error', (e) => post({ type: 'done', error: e.message }));
    },
  );
  req.on('error', (e) => post({ type: 'done', error: e.message }));
  req.end(body);
}

function page(nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'">
<style>#out { white-space: pre-wrap; height: 70vh; overflow: auto; }</style>
</head>
<body>
<button data-testid="run">Run</button> <span data-testid="status">Ready.</span>
<pre data-testid="output" id="out"></pre>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const out = document.getElementById('out');
const status = document.querySelector('[data-testid="status"]');
const observer = () => window[${JSON.stringify(OBSERVER_GLOBAL)}];
let runId;
let chars = 0;
let frame;
document.querySelector('[data-testid="run"]').addEventListener('click', () => {
  status.textContent = 'Streaming…';
  vscode.postMessage({ type: 'run' });
});
function render() {
  frame = undefined;
  const started = performance.now();
  out.scrollTop = out.scrollHeight;
  observer()?.frameRendered?.(runId, chars, started);
}
window.addEventListener('message', (e) => {
  const m = e.data;
  if (m.type === 'start') {
    runId = m.runId;
    chars = 0;
    out.textContent = '';
    status.textContent = 'Streaming…';
  } else if (m.runId !== runId) {
    return;
  } else if (m.type === 'token') {
    out.append(m.text);
    chars += m.text.length;
    observer()?.chunkArrived?.(runId, m.seq, chars);
    frame ??= requestAnimationFrame(render);
  } else if (m.type === 'done') {
    status.textContent = m.error ? 'Failed: ' + m.error : 'Done.';
  }
});
</script>
</body>
</html>`;
}
