// A child process for cliState.test.ts: one of several command-line runs recording jobs in one state file at once.
// argv[2] the state file, argv[3] a name for this writer, argv[4] how many jobs it records. It opens the file once, as
// a run does, waits for the parent's `go` (so every writer has read the file before any writes), records its jobs one
// after another and says `done`.
import { FileState } from '../../src/cli/fileState';
import { JobFile } from '../../src/cli/jobFile';

export const WRITER_SCOPE = 'https://service.example/#0123456789abcdef';

const [, , file, name, count] = process.argv;

void (async () => {
  const jobs = new JobFile(await FileState.open(file!), WRITER_SCOPE);
  process.send?.('ready');
  process.once('message', () => {
    void (async () => {
      try {
        for (let i = 0; i < Number(count); i++) {
          const now = Date.now();
          await jobs.put({
            id: `${name}-${i}`,
            kind: 'evaluation',
            scope: WRITER_SCOPE,
            state: 'queued',
            createdAt: now,
            updatedAt: now,
            modelName: 'm',
            datasetName: 'd',
          });
        }
        process.send?.('done');
      } catch (e) {
        process.send?.(`error: ${e instanceof Error ? e.message : String(e)}`);
      }
      process.disconnect();
    })();
  });
})();
