// A tiny but real GGUF model that llama.cpp loads and generates with (gibberish, ~0.5 MB): llama architecture, two
// blocks, F32 weights drawn from a seeded PRNG, a byte-level gpt2 tokenizer with a few merges and a ChatML template. It
// lets the tests and `npm start` run the local runtime without downloading any model; the same seed gives the same
// bytes.
import { createHash } from 'node:crypto';
import { f32, GGML_TYPE_F32, GGUF_ALIGNMENT, ggufString, GgufType, u32, u64 } from './ggufEncoding';

const N_EMBD = 64;
const N_HEAD = 4;
const N_LAYER = 2;
const N_FF = 128;
const CONTEXT = 2048;

const CHATML_TEMPLATE =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** Enough merges that common English pairs become one token, as in a real BPE vocabulary. */
const MERGES: [string, string][] = [
  ['Ġ', 't'],
  ['h', 'e'],
  ['i', 'n'],
  ['e', 'r'],
  ['a', 'n'],
  ['o', 'n'],
  ['Ġ', 'a'],
  ['r', 'e'],
  ['Ġt', 'he'],
  ['Ġ', 's'],
  ['o', 'r'],
  ['e', 'n'],
];
const SPECIAL = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];

export interface TinyModelOptions {
  /** Any text; the same seed gives the same file. */
  seed: string;
  /** general.name. */
  name?: string;
  /** general.base_model (ignored by llama.cpp, read by the emulator's tests). */
  baseModel?: string;
}

/** GPT-2's byte-to-unicode table: printable bytes stand for themselves, the rest map to U+0100 onwards. */
function byteSymbols(): string[] {
  const printable = (b: number): boolean => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const symbols: string[] = [];
  let next = 256;
  for (let b = 0; b < 256; b++) {
    symbols.push(String.fromCodePoint(printable(b) ? b : next++));
  }
  return symbols;
}

type Meta = { s: string } | { u: number } | { f: number } | { strings: string[] } | { ints: number[] };

function kv(key: string, value: Meta): Buffer {
  const head = ggufString(key);
  if ('s' in value) {
    return Buffer.concat([head, u32(GgufType.STRING), ggufString(value.s)]);
  }
  if ('u' in value) {
    return Buffer.concat([head, u32(GgufType.UINT32), u32(value.u)]);
  }
  if ('f' in value) {
    return Buffer.concat([head, u32(GgufType.FLOAT32), f32(value.f)]);
  }
  if ('strings' in value) {
    return Buffer.concat([
      head,
      u32(GgufType.ARRAY),
      u32(GgufType.STRING),
      u64(value.strings.length),
      ...value.strings.map((x) => ggufString(x)),
    ]);
  }
  const ints = Buffer.alloc(value.ints.length * 4);
  value.ints.forEach((n, i) => ints.writeInt32LE(n, i * 4));
  return Buffer.concat([head, u32(GgufType.ARRAY), u32(GgufType.INT32), u64(value.ints.length), ints]);
}

interface Tensor {
  name: string;
  /** GGUF order: the fastest-varying dimension first. */
  dims: number[];
  /** 'ones' for norms; 'random' for the rest. */
  fill: 'ones' | 'random';
}

function tensors(vocab: number): Tensor[] {
  const list: Tensor[] = [{ name: 'token_embd.weight', dims: [N_EMBD, vocab], fill: 'random' }];
  for (let i = 0; i < N_LAYER; i++) {
    list.push(
      { name: `blk.${i}.attn_norm.weight`, dims: [N_EMBD], fill: 'ones' },
      { name: `blk.${i}.attn_q.weight`, dims: [N_EMBD, N_EMBD], fill: 'random' },
      { name: `blk.${i}.attn_k.weight`, dims: [N_EMBD, N_EMBD], fill: 'random' },
      { name: `blk.${i}.attn_v.weight`, dims: [N_EMBD, N_EMBD], fill: 'random' },
      { name: `blk.${i}.attn_output.weight`, dims: [N_EMBD, N_EMBD], fill: 'random' },
      { name: `blk.${i}.ffn_norm.weight`, dims: [N_EMBD], fill: 'ones' },
      { name: `blk.${i}.ffn_gate.weight`, dims: [N_EMBD, N_FF], fill: 'random' },
      { name: `blk.${i}.ffn_up.weight`, dims: [N_EMBD, N_FF], fill: 'random' },
      { name: `blk.${i}.ffn_down.weight`, dims: [N_FF, N_EMBD], fill: 'random' },
    );
  }
  list.push({ name: 'output_norm.weight', dims: [N_EMBD], fill: 'ones' }, { name: 'output.weight', dims: [N_EMBD, vocab], fill: 'random' });
  return list;
}

/** mulberry32 from a hash of the seed text. */
function prng(seed: string): () => number {
  let a = createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number): number => (GGUF_ALIGNMENT - (n % GGUF_ALIGNMENT)) % GGUF_ALIGNMENT;

/** The whole file in memory (it is small). */
export function tinyModelGguf(opts: TinyModelOptions): Buffer {
  const bytes = byteSymbols();
  const merged = MERGES.map(([a, b]) => a + b);
  const tokens = [...bytes, ...merged, ...SPECIAL];
  const types = [...bytes.map(() => 1), ...merged.map(() => 1), ...SPECIAL.map(() => 3)]; // 1 normal, 3 control
  const id = (t: string): number => tokens.indexOf(t);
  const name = opts.name ?? 'tiny-model';
  const metadata = [
    kv('general.architecture', { s: 'llama' }),
    kv('general.type', { s: 'model' }),
    kv('general.name', { s: name }),
    kv('general.file_type', { u: 0 }), // ALL_F32
    kv('general.alignment', { u: GGUF_ALIGNMENT }),
    ...(opts.baseModel === undefined
      ? []
      : [
          kv('general.base_model.count', { u: 1 }),
          kv('general.base_model.0.name', { s: opts.baseModel }),
          kv('general.base_model', { s: opts.baseModel }),
        ]),
    kv('llama.context_length', { u: CONTEXT }),
    kv('llama.embedding_length', { u: N_EMBD }),
    kv('llama.block_count', { u: N_LAYER }),
    kv('llama.feed_forward_length', { u: N_FF }),
    kv('llama.attention.head_count', { u: N_HEAD }),
    kv('llama.attention.head_count_kv', { u: N_HEAD }),
    kv('llama.rope.dimension_count', { u: N_EMBD / N_HEAD }),
    kv('llama.attention.layer_norm_rms_epsilon', { f: 1e-5 }),
    kv('llama.vocab_size', { u: tokens.length }),
    kv('tokenizer.ggml.model', { s: 'gpt2' }),
    kv('tokenizer.ggml.pre', { s: 'default' }),
    kv('tokenizer.ggml.tokens', { strings: tokens }),
    kv('tokenizer.ggml.token_type', { ints: types }),
    kv('tokenizer.ggml.merges', { strings: MERGES.map(([a, b]) => `${a} ${b}`) }),
    kv('tokenizer.ggml.bos_token_id', { u: id('<|endoftext|>') }),
    kv('tokenizer.ggml.eos_token_id', { u: id('<|im_end|>') }),
    kv('tokenizer.ggml.padding_token_id', { u: id('<|endoftext|>') }),
    kv('tokenizer.chat_template', { s: CHATML_TEMPLATE }),
  ];
  const list = tensors(tokens.length);
  const infos: Buffer[] = [];
  let offset = 0;
  for (const t of list) {
    infos.push(Buffer.concat([ggufString(t.name), u32(t.dims.length), ...t.dims.map(u64), u32(GGML_TYPE_F32), u64(offset)]));
    const size = t.dims.reduce((a, b) => a * b, 1) * 4;
    offset += size + pad(size);
  }
  const head = Buffer.concat([Buffer.from('GGUF', 'ascii'), u32(3), u64(list.length), u64(metadata.length), ...metadata, ...infos]);
  const data = Buffer.alloc(offset);
  const random = prng(opts.seed);
  let at = 0;
  for (const t of list) {
    const count = t.dims.reduce((a, b) => a * b, 1);
    // Scaled like a fresh initialisation (about 1/sqrt(fan-in)) so activations stay finite through both blocks.
    const scale = 1 / Math.sqrt(t.dims[0]!);
    for (let i = 0; i < count; i++) {
      data.writeFloatLE(t.fill === 'ones' ? 1 : (random() * 2 - 1) * scale, at + i * 4);
    }
    at += count * 4 + pad(count * 4);
  }
  return Buffer.concat([head, Buffer.alloc(pad(head.length)), data]);
}
