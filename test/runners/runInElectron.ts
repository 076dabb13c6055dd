// Runs the same compiled in-editor suite in VS Code desktop through @vscode/test-electron, for machines that can
// download VS Code from Microsoft's update server (a laptop, a hosted CI with internet). Builds nothing: see
// `npm run test:electron`. The extension host inherits this process's environment, as with the server runner.
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { repoRoot, suiteIndexPath, testWorkspacePath } from './vscodeServerLayout';

async function main(): Promise<number> {
  try {
    // The exit code carries the verdict here; mocha's spec reporter prints the per-test lines.
    await runTests({
      // The version the server runner uses (code-server 4.100.3), which the smoke test checks.
      version: '1.100.3',
      extensionDevelopmentPath: repoRoot,
      extensionTestsPath: suiteIndexPath,
      launchArgs: [testWorkspacePath, '--disable-extensions'],
      cachePath: path.join(repoRoot, '.vscode-test'),
    });
    return 0;
  } catch (error) {
    console.error(`[vscode-test] in-editor tests failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

void main().then((code) => process.exit(code));
