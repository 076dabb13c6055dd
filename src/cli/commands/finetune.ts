// `finetune <files…> --base --name`: the files checked as the extension checks them (finetuneFiles.ts: kind by magic
// bytes, no links, size limits; named by their own path, so a file outside the current folder is taken as chosen, one
// inside it must really be there), the pre-flight read of their text (preflight.ts, in its own child process with its
// memory bound) with its warnings printed, then a paid job started only once confirmed: a "yes" on a terminal, or
// --yes when stdin is not one. The upload checks each file again on the opened handle (uploadSource.ts).
import * as path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { checkFinetuneFiles } from '../../features/finetune/finetuneFiles';
import { startFinetuneOnce } from '../../features/finetune/finetuneStart';
import { modelNameProblem, modeProblem } from '../../features/finetune/finetuneAnswers';
import { preflightRead } from '../../features/finetune/preflight';
import { describeCounts } from '../../features/finetune/preflightSummary';
import { preflightWarnings, type PreflightWarning } from '../../features/finetune/preflightWarnings';
import type { JobRecord } from '../../jobs/jobRecord';
import { formatBytes } from '../../util/byteSize';
import type { FinetuneOptions } from '../args';
import type { CommandContext } from '../context';
import { CliError } from '../exitCodes';
import { exitCodeOfJob, followJob } from '../followJob';
import { followCommand, jobJson } from '../jsonOutput';
import { paidStartDeps, startConnection } from '../paidStart';
import { jobText } from './status';

/** The extension's defaults (hostedReasoning.finetune.maxFileSizeMB, maxFiles). */
const MAX_FILE_BYTES = 512 * 1024 * 1024;
const MAX_FILES = 100;

export async function finetuneCommand(ctx: CommandContext, options: FinetuneOptions): Promise<number> {
  const nameProblem = modelNameProblem(options.modelName);
  if (nameProblem) throw new CliError(`--name: ${nameProblem}`);
  const mode = modeProblem(options.mode);
  if (mode) throw new CliError(`--mode: ${mode}`);
  const cwd = ctx.io.cwd;
  const sources = options.files.map((id) => ({ id, label: labelOf(id, cwd) }));
  const check = await checkFinetuneFiles(
    sources,
    { maxFileBytes: MAX_FILE_BYTES, maxFiles: MAX_FILES },
    { roots: [cwd], outsideAllowed: true },
  );
  if (check.problems.length > 0) {
    // Nothing is dropped silently: a file that cannot be used stops the run, so the model is made from what was named.
    throw new CliError(['These files cannot be used:', ...check.problems.map((p) => `  ${p.message}`)].join('\n'));
  }
  const files = check.valid;

  ctx.out.note(`Reading ${files.length === 1 ? '1 file' : `${files.length} files`} before the upload…`);
  const read = await preflightRead(
    files.map((f) => ({ path: f.id, kind: f.kind, label: f.label })),
    { signal: ctx.signal, onFile: (done, total) => ctx.out.progress(`Reading the files (${done}/${total})`, done / total) },
  );
  ctx.out.clearBar();
  if (ctx.signal.aborted) throw new CliError('Stopped before the upload; nothing was started.', 130);
  for (const r of read) ctx.out.note(`  ${r.label}: ${describeCounts(r)}`);
  const warnings = preflightWarnings(read, options.questions);
  for (const w of warnings) ctx.out.note(`Warning: ${w.message}`);

  const total = files.reduce((sum, f) => sum + f.size, 0);
  const summary = `Finetune ${options.base} into ${options.modelName} from ${files.length === 1 ? '1 file' : `${files.length} files`} (${formatBytes(total)}), ${options.questions} questions. This starts a paid job.`;
  await confirm(ctx, summary, options.yes);

  // Held once per service, key and name with the extension and the MCP server (paidStart.ts): a second run of the same
  // name meanwhile is refused before a byte is sent, and the duplicate-name rule is read again once held.
  let job: JobRecord;
  try {
    job = await startFinetuneOnce(
      paidStartDeps(ctx),
      startConnection(ctx),
      files,
      files.map((f) => f.id),
      { baseModel: options.base, modelName: options.modelName, numQs: options.questions, mode: options.mode, useCase: options.useCase },
      { signal: ctx.signal, onProgress: (p) => ctx.out.progress('Uploading', p.total > 0 ? p.sent / p.total : undefined) },
    );
  } finally {
    ctx.out.clearBar();
  }
  ctx.out.note(`Started finetuning job ${job.id}.`);
  const document = (j: JobRecord) => ({
    job: jobJson(j),
    files: files.map((f, i) => ({
      label: f.label,
      size: f.size,
      ...(j.lineage?.files[i]?.sha256 !== undefined && { sha256: j.lineage.files[i].sha256 }),
    })),
    warnings: warnings.map(warningJson),
  });
  if (!options.wait) {
    ctx.out.result(`Follow it with: ${followCommand(job.id)}`, document(job));
    return 0;
  }
  job = await followJob(ctx, job, options.intervalMs);
  ctx.out.result(jobText(job), document(job));
  return exitCodeOfJob(job);
}

function warningJson(w: PreflightWarning): { code: string; files: string[]; message: string } {
  return { code: w.code, files: w.labels, message: w.message };
}

/** How the person named the file: relative to the current folder when it is under it. */
function labelOf(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

/** A paid start: asked on a terminal, else only with --yes (a pipeline says so explicitly). */
async function confirm(ctx: CommandContext, summary: string, yes: boolean): Promise<void> {
  ctx.out.note(summary);
  if (yes) return;
  if (!ctx.io.stdin.isTTY) throw new CliError('Nothing was started: add --yes to start a paid job when stdin is not a terminal.');
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr });
  try {
    const answer = await rl.question('Start it? [y/N] ', { signal: ctx.signal });
    if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('Nothing was started.');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('Nothing was started.', 130);
  } finally {
    rl.close();
  }
}
