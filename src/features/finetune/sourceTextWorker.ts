// The pre-flight worker thread (bundled by esbuild.mjs as dist/sourceTextWorker.js), started by the reader's child process
// (preflightChild.ts): reads one file per message with sourceText.ts and posts the result back, off the thread that
// watches the process's memory, so a synchronous inflate never keeps that thread from ending the process.
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
