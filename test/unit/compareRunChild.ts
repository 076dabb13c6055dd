// A comparison run in its own process, for compareRun.test.ts to kill mid-run: argv[2] the emulator's URL, argv[3] the
// comparison's folder. It runs until killed or done, as the extension host would.
import { collectInference, ServiceClient } from '../../src/api/client';
import { ComparisonLog } from '../../src/features/evaluate/compare/comparisonLog';
import { runComparison } from '../../src/features/evaluate/compare/compareRun';

const [, , baseUrl, dir] = process.argv;
const log = ComparisonLog.open(dir!)!;
const client = new ServiceClient({ baseUrl: baseUrl!, apiKey: 'demo-key' });
void runComparison({
  log,
  concurrency: 2,
  infer: async (r, signal) =>
    collectInference(
      client.infer({ ...r, stream: false, useRag: false, sequentialBudget: 8, parallelBudget: 1, temperature: 0 }, { signal }),
    ),
}).then(() => process.exit(0));
