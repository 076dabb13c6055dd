// The measured uploader/downloader: a process of its own (the emulator runs in another), so its peak memory is the
// client's alone. node --expose-gc transferWorker.js '<TransferJob JSON>'; prints one JSON line (TransferResult).
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { ServiceClient } from '../../src/api/client';
import { resetPeak, rssNow, rssPeak, sampleRss } from './memory';

export type TransferJob =
  | { kind: 'upload'; baseUrl: string; apiKey: string; files: string[]; modelName: string; modelType: string }
  | { kind: 'download'; baseUrl: string; apiKey: string; modelName: string; directory: string }
  /** Context for the download figure: the redirect read by hand, then node:http piped into the file, nothing else. */
  | { kind: 'bareDownload'; baseUrl: string; apiKey: string; modelName: string; directory: string };

export interface TransferResult {
  ms: number;
  /** RSS just before the transfer, after a GC. */
  baselineRss: number;
  /** VmHWM after a reset at the start (undefined where /proc cannot reset it). */
  peakRss?: number;
  /** Highest RSS seen by polling every 50 ms. */
  polledPeakRss: number;
  /** CPU time of this process during the transfer. */
  cpuUserMs: number;
  cpuSystemMs: number;
  detail: Record<string, unknown>;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '') as TransferJob;
  const client = new ServiceClient({ baseUrl: job.baseUrl, apiKey: job.apiKey, log: () => undefined });
  // Warm-up: load axios and the request path, so the baseline is the client at rest, not a process still loading.
  await client.listModels();
  (globalThis as { gc?: () => void }).gc?.();
  const baselineRss = rssNow();
  const canReset = resetPeak();
  const sampler = sampleRss();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let detail: Record<string, unknown>;
  if (job.kind === 'upload') {
    const started = await client.startFinetune({
      files: job.files,
      numQs: 10,
      mode: 'pretraining',
      modelName: job.modelName,
      modelType: job.modelType,
      useCase: '',
    });
    detail = { jobId: started.jobId };
  } else if (job.kind === 'bareDownload') {
    const api = `${job.baseUrl}/cr/finetune_model/download?model_name=${encodeURIComponent(job.modelName)}`;
    const get = (url: string, headers: Record<string, string>) =>
      new Promise<http.IncomingMessage>((resolve, reject) => http.get(url, { headers }, resolve).on('error', reject));
    const redirect = await get(api, { 'X-API-Key': job.apiKey });
    redirect.resume();
    const res = await get(String(redirect.headers.location), {});
    const file = path.join(job.directory, 'bare.gguf');
    await pipeline(res, createWriteStream(file, { highWaterMark: 1024 * 1024 }));
    detail = { path: file, bytes: Number(res.headers['content-length']) };
  } else {
    const out = await client.download(job.modelName, { directory: job.directory });
    detail = { path: out.path, bytes: out.bytes, resumes: out.resumes, resumedFrom: out.resumedFrom, verified: out.verified };
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const polledPeakRss = sampler.stop();
  const result: TransferResult = {
    ms, baselineRss, peakRss: canReset ? rssPeak() : undefined, polledPeakRss, cpuUserMs: cpu.user / 1000, cpuSystemMs: cpu.system / 1000, detail,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
