// Fallback activation figure: the time to require() a bundle in a fresh Node process with a stub `vscode` module.
// node requireProbe.js '"<file>"' (a JSON string, as runNodeJson passes it); prints one JSON line { ms }.
import { performance } from 'node:perf_hooks';
import { installVscodeStub } from './vscodeStub';

installVscodeStub();
const file = JSON.parse(process.argv[2] ?? '""') as string;
const t0 = performance.now();
// eslint-disable-next-line @typescript-eslint/no-require-imports
require(file);
process.stdout.write(`${JSON.stringify({ ms: performance.now() - t0 })}\n`);
