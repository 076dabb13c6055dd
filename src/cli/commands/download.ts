// `download <model> [--out <folder>]`: the model's file, by the client's downloader (download.ts), with its rules: a
// part file beside the target resumed where it stopped (one writer at a time, partLock.ts), the signed URL fetched
// without the key, the bytes verified against the strongest checksum announced, and a name that never replaces a file
// unless --overwrite. A transfer that breaks is resumed by the run itself; one stopped (Ctrl+C, a lost connection)
// keeps its part file, and the same command resumes it.
import { promises as fs } from 'node:fs';
import { partFilePath } from '../../api/download';
import { formatBytes, formatTransfer } from '../../util/byteSize';
import type { CommandContext } from '../context';
import { CliError } from '../exitCodes';
import { downloadJson } from '../jsonOutput';

export async function downloadCommand(ctx: CommandContext, options: { model: string; out: string; overwrite: boolean }): Promise<number> {
  const folder = await fs.stat(options.out).catch(() => undefined);
  if (!folder) throw new CliError(`--out ${options.out} does not exist: create the folder first (the download goes into it).`);
  if (!folder.isDirectory()) throw new CliError(`--out ${options.out} is not a folder.`);
  try {
    const outcome = await ctx.connection.client.download(options.model, {
      directory: options.out,
      overwrite: options.overwrite,
      signal: ctx.signal,
      onProgress: (p) =>
        ctx.out.progress(
          p.total ? `Downloading ${options.model}: ${formatTransfer(p.received, p.total)}` : `Downloading ${options.model}`,
          p.total ? p.received / p.total : undefined,
        ),
    });
    ctx.out.clearBar();
    if (outcome.resumedFrom > 0) ctx.out.note(`Resumed from ${formatBytes(outcome.resumedFrom)} already downloaded.`);
    ctx.out.result(
      `Downloaded ${outcome.path} (${formatBytes(outcome.bytes)}, verified by ${outcome.verified === 'length' ? 'its length' : outcome.verified}).`,
      downloadJson(outcome),
    );
    return 0;
  } catch (error) {
    ctx.out.clearBar();
    const part = partFilePath(options.out, options.model, undefined, ctx.connection.client.baseUrl);
    const kept = await fs
      .stat(part)
      .then((s) => s.size > 0)
      .catch(() => false);
    if (kept) ctx.out.note(`The part downloaded so far is kept (${part}); run the same command again to resume.`);
    throw error;
  }
}
