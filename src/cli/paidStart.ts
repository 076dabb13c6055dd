// What the shared paid-start functions (finetuneStart.ts, evaluationStart.ts) need from a command-line run: the
// start-once hold of the extension and the MCP server (jobs/startingJobs.ts), its lock files under the config folder's
// `starting` folder (where `hosted-reasoning mcp` keeps its own, so a run and the server hold one start between them),
// and the run's job records.
import * as path from 'node:path';
import type { PaidStartDeps, StartConnection } from '../features/finetune/finetuneStart';
import { StartingJobs } from '../jobs/startingJobs';
import type { CommandContext } from './context';

export function paidStartDeps(ctx: CommandContext): PaidStartDeps {
  const log = (line: string) => ctx.out.debug(line);
  return {
    starting: new StartingJobs(path.join(path.dirname(ctx.connection.state.file), 'starting'), log, { face: 'cli' }),
    // One scope per run: the file's records are this run's service and key.
    jobs: { list: () => ctx.jobs.list(), put: (job) => ctx.jobs.put(job), reload: () => ctx.jobs.reload() },
    log,
  };
}

export function startConnection(ctx: CommandContext): StartConnection {
  return { client: ctx.connection.client, scope: ctx.jobs.scope };
}
