// The GGUF v3 encoding pieces (gguf.md) shared by the emulator's artifact writer (gguf.ts) and its tiny llama model
// (tinyModel.ts): little-endian integers, length-prefixed strings, the metadata value types.

/** GGUF metadata value types. */
export const GgufType = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;

export const GGML_TYPE_F32 = 0;
export const GGUF_ALIGNMENT = 32;

export function ggufString(s: string): Buffer {
  const bytes = Buffer.from(s, 'utf8');
  return Buffer.concat([u64(bytes.length), bytes]);
}

export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

export function u64(n: number | bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}

export function f32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeFloatLE(n);
  return b;
}
