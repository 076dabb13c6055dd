// The pre-flight worker thread (bundled by esbuild.mjs as dist/sourceTextWorker.js): reads one file per message with
// sourceText.ts and posts the result back, so the extension host never waits on pdfjs or mammoth.
import { parentPort } from 'node:worker_threads';
import { readSourceText, type SourceKind } from './sourceText';

export interface SourceTextRequest {
  path: string;
  kind: SourceKind;
}

if (parentPort) {
  const port = parentPort;
  port.on('message', (request: SourceTextRequest) => {
    readSourceText(request.path, request.kind).then(
      (result) => port.postMessage({ result }),
      (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
