// The measured uploader/downloader: a process of its own (the emulator runs in another), so its peak memory is the
// client's alone. node --expose-gc transferWorker.js '<TransferJob JSON>'; prints one JSON line (TransferResult).
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ServiceClient } from '../../src/api/client';
import { resetPeak, rssNow, rssPeak, sampleRss } from './memory';

export type TransferJob =
  | { kind: 'upload'; baseUrl: string; apiKey: string; files: string[]; modelName: string; modelType: string }
  | { kind: 'download'; baseUrl: string; apiKey: string; modelName: string; directory: string }
  /** Context for the download figure: the redirect read by hand, then node:http written to the file, nothing else. */
  | { kind: 'bareDownload'; baseUrl: string; apiKey: string; modelName: string; directory: string; writer: BareWriter };

/**
 * How the bare download writes: `pipeline` = stream.pipeline into a file stream (1 MiB buffer); `coalesce` = the same
 * through a Transform that copies chunks into 1 MiB blocks (one write per MiB); `events` = 'data' events into a file
 * stream with a 1 MiB buffer, paused on backpressure (the way writeBody.ts writes).
 */
export type BareWriter = 'pipeline' | 'coalesce' | 'events';

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
  /** Minor page faults and voluntary context switches of this process during the transfer. */
  minorFaults: number;
  contextSwitches: number;
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
  const r0 = process.resourceUsage();
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
    await bareWrite(res, file, job.writer);
    detail = { path: file, bytes: Number(res.headers['content-length']) };
  } else {
    const out = await client.download(job.modelName, { directory: job.directory });
    detail = { path: out.path, bytes: out.bytes, resumes: out.resumes, resumedFrom: out.resumedFrom, verified: out.verified };
  }
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  const r1 = process.resourceUsage();
  const polledPeakRss = sampler.stop();
  const result: TransferResult = {
    ms,
    baselineRss,
    peakRss: canReset ? rssPeak() : undefined,
    polledPeakRss,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    minorFaults: r1.minorPageFault - r0.minorPageFault,
    contextSwitches: r1.voluntaryContextSwitches - r0.voluntaryContextSwitches,
    detail,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

const MiB = 1024 * 1024;

async function bareWrite(res: http.IncomingMessage, file: string, writer: BareWriter): Promise<void> {
  if (writer === 'pipeline') return pipeline(res, createWriteStream(file, { highWaterMark: MiB }));
  if (writer === 'coalesce') return pipeline(res, new Coalescer(MiB), createWriteStream(file, { highWaterMark: MiB }));
  const out = createWriteStream(file, { highWaterMark: MiB });
  await new Promise<void>((resolve, reject) => {
    res.on('data', (chunk: Buffer) => {
      if (!out.write(chunk)) {
        res.pause();
        out.once('drain', () => res.resume());
      }
    });
    res.once('end', () => out.end());
    res.once('error', reject);
    out.once('error', reject);
    out.once('close', resolve);
  });
}

/** Copies the chunks into blocks of `size` bytes and hands on full blocks only (the last one may be short). */
class Coalescer extends Transform {
  private block: Buffer;
  private filled = 0;

  constructor(private readonly size: number) {
    super();
    this.block = Buffer.allocUnsafe(size);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (let at = 0; at < chunk.length;) {
      const n = Math.min(this.size - this.filled, chunk.length - at);
      chunk.copy(this.block, this.filled, at, at + n);
      this.filled += n;
      at += n;
      if (this.filled === this.size) {
        this.push(this.block);
        this.block = Buffer.allocUnsafe(this.size); // the pushed block is still queued for writing
        this.filled = 0;
      }
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.filled > 0) this.push(this.block.subarray(0, this.filled));
    done();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
