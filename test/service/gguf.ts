// A real GGUF v3 file (the format llama.cpp loads) for finetune artifacts: from the tiny model's size on, a loadable
// model (tinyModel.ts) followed by filler; below it, an adapter-shaped file (header, typed metadata, tensor infos,
// alignment padding, then deterministic pseudo-random tensor data) up to the requested size. Written in chunks through
// a write stream with backpressure so multi-GB benchmark artifacts never sit in memory, and hashed while written.
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { f32, GGML_TYPE_F32, GGUF_ALIGNMENT, ggufString, GgufType, u32, u64 } from './ggufEncoding';
import { tinyModelGguf } from './tinyModel';

export { GGUF_ALIGNMENT } from './ggufEncoding';
const CHUNK = 1024 * 1024;

export type MetaValue = string | number | bigint | boolean | MetaValue[];

export interface GgufWriteOptions {
  modelName: string;
  baseModel: string;
  totalBytes: number;
  /** Extra metadata; strings, uint32 numbers, uint64 bigints, booleans. */
  extraMetadata?: Record<string, string | number | bigint | boolean>;
}

function kv(key: string, value: string | number | bigint | boolean | number[]): Buffer {
  if (typeof value === 'string') {
    return Buffer.concat([ggufString(key), u32(GgufType.STRING), ggufString(value)]);
  }
  if (typeof value === 'boolean') {
    return Buffer.concat([ggufString(key), u32(GgufType.BOOL), Buffer.from([value ? 1 : 0])]);
  }
  if (typeof value === 'bigint') {
    return Buffer.concat([ggufString(key), u32(GgufType.UINT64), u64(value)]);
  }
  if (Array.isArray(value)) {
    return Buffer.concat([ggufString(key), u32(GgufType.ARRAY), u32(GgufType.FLOAT32), u64(value.length), ...value.map(f32)]);
  }
  if (Number.isInteger(value)) {
    return Buffer.concat([ggufString(key), u32(GgufType.UINT32), u32(value)]);
  }
  return Buffer.concat([ggufString(key), u32(GgufType.FLOAT32), f32(value)]);
}

interface TensorPlan {
  name: string;
  dims: bigint[];
  offset: bigint;
  bytes: number;
}

/** Splits the data region into LoRA A/B tensor pairs (2-D F32, 16 x n) over as many blocks as needed. */
function planTensors(dataBytes: number): TensorPlan[] {
  const rank = 16;
  const unit = rank * 4; // bytes per column of a rank-16 F32 tensor; keeps every size a multiple of the alignment/2
  const usable = Math.floor(dataBytes / (unit * 2)) * unit * 2;
  if (usable <= 0) {
    return [];
  }
  // Aim for ~8 MiB tensors, like the q/v projections of a small model, capped so the header stays small.
  const pairs = Math.max(1, Math.min(64, Math.floor(usable / (16 * 1024 * 1024))));
  const perTensor = Math.floor(usable / (pairs * 2) / GGUF_ALIGNMENT / 2) * GGUF_ALIGNMENT * 2;
  const plans: TensorPlan[] = [];
  let offset = 0;
  for (let i = 0; i < pairs * 2; i++) {
    const last = i === pairs * 2 - 1;
    const bytes = last ? Math.floor((usable - offset) / unit) * unit : perTensor;
    const block = Math.floor(i / 2);
    const proj = i % 2 === 0 ? 'lora_a' : 'lora_b';
    plans.push({ name: `blk.${block}.attn_q.weight.${proj}`, dims: [BigInt(rank), BigInt(bytes / unit)], offset: BigInt(offset), bytes });
    offset += bytes;
  }
  return plans;
}

/** Builds the header (everything before the tensor data) for a given plan. */
function buildHeader(opts: GgufWriteOptions, tensors: TensorPlan[]): Buffer {
  const baseName = opts.modelName.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64) || 'model';
  const metadata: Buffer[] = [
    kv('general.architecture', 'llama'),
    kv('general.type', 'adapter'),
    kv('general.name', opts.modelName),
    kv('general.basename', baseName),
    kv('general.file_type', 0), // ALL_F32
    kv('general.alignment', GGUF_ALIGNMENT),
    kv('general.base_model.count', 1),
    kv('general.base_model.0.name', opts.baseModel),
    kv('general.base_model', opts.baseModel),
    kv('adapter.type', 'lora'),
    kv('adapter.lora.alpha', 32),
    kv('general.quantization_version', 2),
  ];
  for (const [k, v] of Object.entries(opts.extraMetadata ?? {})) {
    metadata.push(kv(k, v));
  }
  const infos = tensors.map((t) =>
    Buffer.concat([ggufString(t.name), u32(t.dims.length), ...t.dims.map((d) => u64(d)), u32(GGML_TYPE_F32), u64(t.offset)]),
  );
  const head = Buffer.concat([Buffer.from('GGUF', 'ascii'), u32(3), u64(tensors.length), u64(metadata.length), ...metadata, ...infos]);
  const pad = (GGUF_ALIGNMENT - (head.length % GGUF_ALIGNMENT)) % GGUF_ALIGNMENT;
  return Buffer.concat([head, Buffer.alloc(pad)]);
}

function seedOf(name: string): number {
  return createHash('sha256').update(name).digest().readUInt32LE(0) || 0x9e3779b9;
}

/**
 * Writes the artifact to `path` (via `path.partial` then rename, so readers never see a half-written file).
 * Returns its size and sha256.
 */
export async function writeGguf(path: string, opts: GgufWriteOptions): Promise<{ size: number; sha256: string }> {
  // Large enough for the tiny model: a real loadable one (llama.cpp ignores bytes after the tensor data, so the rest of
  // the requested size, up to the benchmarks' gigabytes, is pseudo-random filler). Smaller: adapter-shaped, not loadable.
  const model = tinyModelGguf({ seed: opts.modelName, name: opts.modelName, baseModel: opts.baseModel });
  let header: Buffer;
  let dataBytes: number;
  if (opts.totalBytes >= model.length) {
    header = model;
    dataBytes = opts.totalBytes - model.length;
  } else {
    // The header size depends on the tensor count; plan with a header estimate, then shrink the data to fit exactly.
    let tensors = planTensors(Math.max(0, opts.totalBytes - 4096));
    header = buildHeader(opts, tensors);
    tensors = planTensors(Math.max(0, opts.totalBytes - header.length));
    header = buildHeader(opts, tensors);
    dataBytes = tensors.reduce((n, t) => n + t.bytes, 0);
  }
  const tail = Math.max(0, opts.totalBytes - header.length - dataBytes); // zero padding up to the exact size

  const partial = `${path}.partial`;
  const hash = createHash('sha256');
  const out = createWriteStream(partial);
  const write = (buf: Buffer): Promise<void> =>
    new Promise((resolve, reject) => {
      hash.update(buf);
      if (out.write(buf)) {
        resolve();
        return;
      }
      const onDrain = (): void => {
        out.off('error', onError);
        resolve();
      };
      const onError = (err: Error): void => {
        out.off('drain', onDrain);
        reject(err);
      };
      out.once('drain', onDrain);
      out.once('error', onError);
    });
  try {
    await write(header);
    // xorshift32: cheap deterministic "weights"; the same model name always yields the same bytes.
    let x = seedOf(opts.modelName) >>> 0;
    let remaining = dataBytes;
    while (remaining > 0) {
      const size = Math.min(CHUNK, remaining);
      const words = Math.ceil(size / 4);
      const arr = new Uint32Array(words); // typed-array writes are ~10x faster than Buffer.writeUInt32LE
      for (let i = 0; i < words; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        arr[i] = x;
      }
      const buf = Buffer.from(arr.buffer, 0, size);
      await write(buf);
      remaining -= size;
    }
    if (tail > 0) {
      await write(Buffer.alloc(tail));
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    await rename(partial, path);
  } catch (err) {
    out.destroy();
    await rm(partial, { force: true });
    throw err;
  }
  return { size: header.length + dataBytes + tail, sha256: hash.digest('hex') };
}

export interface GgufHeader {
  magic: string;
  version: number;
  tensorCount: bigint;
  metadataCount: bigint;
  metadata: Record<string, MetaValue>;
  tensors: { name: string; dims: bigint[]; type: number; offset: bigint }[];
  /** Byte offset where tensor data starts (after alignment padding). */
  dataOffset: number;
}

/** Parses a GGUF header (tests check magic, version and general.name). Reads only the first bytes of the file. */
export async function readGgufHeader(path: string, maxHeaderBytes = 4 * 1024 * 1024): Promise<GgufHeader> {
  const fh = await open(path, 'r');
  let buf: Buffer;
  try {
    const probe = Buffer.alloc(maxHeaderBytes);
    const { bytesRead } = await fh.read(probe, 0, maxHeaderBytes, 0);
    buf = probe.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  let pos = 0;
  const need = (n: number): void => {
    if (pos + n > buf.length) {
      throw new Error(`GGUF header truncated at byte ${pos}`);
    }
  };
  const readU32 = (): number => {
    need(4);
    const v = buf.readUInt32LE(pos);
    pos += 4;
    return v;
  };
  const readU64 = (): bigint => {
    need(8);
    const v = buf.readBigUInt64LE(pos);
    pos += 8;
    return v;
  };
  const readString = (): string => {
    const len = Number(readU64());
    need(len);
    const s = buf.toString('utf8', pos, pos + len);
    pos += len;
    return s;
  };
  const readValue = (type: number): MetaValue => {
    switch (type) {
      case GgufType.UINT8:
        need(1);
        return buf.readUInt8(pos++);
      case GgufType.INT8:
        need(1);
        return buf.readInt8(pos++);
      case GgufType.UINT16:
        need(2);
        pos += 2;
        return buf.readUInt16LE(pos - 2);
      case GgufType.INT16:
        need(2);
        pos += 2;
        return buf.readInt16LE(pos - 2);
      case GgufType.UINT32:
        return readU32();
      case GgufType.INT32:
        need(4);
        pos += 4;
        return buf.readInt32LE(pos - 4);
      case GgufType.FLOAT32:
        need(4);
        pos += 4;
        return buf.readFloatLE(pos - 4);
      case GgufType.BOOL:
        need(1);
        return buf.readUInt8(pos++) !== 0;
      case GgufType.STRING:
        return readString();
      case GgufType.UINT64:
        return readU64();
      case GgufType.INT64:
        need(8);
        pos += 8;
        return buf.readBigInt64LE(pos - 8);
      case GgufType.FLOAT64:
        need(8);
        pos += 8;
        return buf.readDoubleLE(pos - 8);
      case GgufType.ARRAY: {
        const itemType = readU32();
        const count = Number(readU64());
        const items: MetaValue[] = [];
        for (let i = 0; i < count; i++) {
          items.push(readValue(itemType));
        }
        return items;
      }
      default:
        throw new Error(`unknown GGUF value type ${type}`);
    }
  };

  need(4);
  const magic = buf.toString('latin1', 0, 4);
  pos = 4;
  if (magic !== 'GGUF') {
    throw new Error(`not a GGUF file (magic ${JSON.stringify(magic)})`);
  }
  const version = readU32();
  const tensorCount = readU64();
  const metadataCount = readU64();
  const metadata: Record<string, MetaValue> = {};
  for (let i = 0n; i < metadataCount; i++) {
    const key = readString();
    metadata[key] = readValue(readU32());
  }
  const tensors: GgufHeader['tensors'] = [];
  for (let i = 0n; i < tensorCount; i++) {
    const name = readString();
    const nDims = readU32();
    const dims: bigint[] = [];
    for (let d = 0; d < nDims; d++) {
      dims.push(readU64());
    }
    tensors.push({ name, dims, type: readU32(), offset: readU64() });
  }
  const alignment = typeof metadata['general.alignment'] === 'number' ? metadata['general.alignment'] : GGUF_ALIGNMENT;
  const dataOffset = Math.ceil(pos / alignment) * alignment;
  return { magic, version, tensorCount, metadataCount, metadata, tensors, dataOffset };
}
