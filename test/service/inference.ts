// POST /cr/provider_predict_platform_base_oss: validation, a deterministic answer, and token streaming in three
// framings (SSE, NDJSON, plain text) with real pacing, keep-alives, mid-stream errors and prompt stop on disconnect.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonObject, sendDetail, sendJson, sendValidation, sleepUnlessClosed, type ValidationIssue } from './http-util';
import { hasModel, keyConfig, modelNamed } from './keys';
import { styledAnswer, styledStream, type StreamFramer } from './styles';
import type { Framing, ReasoningForm, State } from './types';

/** Budgets: the spec shows no range; the emulator accepts integers 1..64 (defaults 8 sequential, 1 parallel). */
export const BUDGET_MIN = 1;
export const BUDGET_MAX = 64;
export const TEMPERATURE_MAX = 2;
/** Prompt length limit chosen for the emulator (spec: not shown). */
export const PROMPT_MAX_CHARS = 100_000;
/** Literal that, inside a prompt, makes the stream fail after a few tokens. */
export const STREAM_ERROR_MARKER = '[[emulator:stream-error]]';

export interface InferenceRequest {
  prompt: string;
  queryOnly?: string;
  modelName: string;
  stream: boolean;
  useRag: boolean;
  sequentialBudget: number;
  parallelBudget: number;
  temperature: number;
}

const loc = (field: string): string[] => ['body', field];

/** Pydantic-strict checks: wrong JSON types are 422s, not coerced. */
export function validateInference(
  body: Record<string, unknown>,
): { ok: true; value: InferenceRequest } | { ok: false; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const str = (field: string, required: boolean): string | undefined => {
    const v = body[field];
    if (v === undefined || v === null) {
      if (required) {
        issues.push({ type: 'missing', loc: loc(field), msg: 'Field required', input: body });
      }
      return undefined;
    }
    if (typeof v !== 'string') {
      issues.push({ type: 'string_type', loc: loc(field), msg: 'Input should be a valid string', input: v });
      return undefined;
    }
    return v;
  };
  const bool = (field: string): boolean => {
    const v = body[field];
    if (v === undefined || v === null) {
      return false;
    }
    if (typeof v !== 'boolean') {
      issues.push({ type: 'bool_type', loc: loc(field), msg: 'Input should be a valid boolean', input: v });
      return false;
    }
    return v;
  };
  const budget = (field: string, dflt: number): number => {
    const v = body[field];
    if (v === undefined || v === null) {
      return dflt;
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      issues.push({ type: 'int_type', loc: loc(field), msg: 'Input should be a valid integer', input: v });
      return dflt;
    }
    if (v < BUDGET_MIN) {
      issues.push({
        type: 'greater_than_equal',
        loc: loc(field),
        msg: `Input should be greater than or equal to ${BUDGET_MIN}`,
        input: v,
        ctx: { ge: BUDGET_MIN },
      });
    } else if (v > BUDGET_MAX) {
      issues.push({
        type: 'less_than_equal',
        loc: loc(field),
        msg: `Input should be less than or equal to ${BUDGET_MAX}`,
        input: v,
        ctx: { le: BUDGET_MAX },
      });
    }
    return v;
  };

  const prompt = str('prompt', true);
  if (prompt !== undefined && prompt.trim() === '') {
    issues.push({
      type: 'string_too_short',
      loc: loc('prompt'),
      msg: 'String should have at least 1 character',
      input: prompt,
      ctx: { min_length: 1 },
    });
  } else if (prompt !== undefined && prompt.length > PROMPT_MAX_CHARS) {
    issues.push({
      type: 'string_too_long',
      loc: loc('prompt'),
      msg: `String should have at most ${PROMPT_MAX_CHARS} characters`,
      ctx: { max_length: PROMPT_MAX_CHARS },
    });
  }
  const queryOnly = str('query_only', false);
  const modelName = str('model_name', true);
  const stream = bool('stream');
  const useRag = bool('use_rag');
  const sequentialBudget = budget('sequential_budget', 8);
  const parallelBudget = budget('parallel_budget', 1);
  let temperature = 0.7;
  const t = body.temperature;
  if (t !== undefined && t !== null) {
    if (typeof t !== 'number' || !Number.isFinite(t)) {
      issues.push({ type: 'float_type', loc: loc('temperature'), msg: 'Input should be a valid number', input: t });
    } else if (t < 0) {
      issues.push({
        type: 'greater_than_equal',
        loc: loc('temperature'),
        msg: 'Input should be greater than or equal to 0',
        input: t,
        ctx: { ge: 0 },
      });
    } else if (t > TEMPERATURE_MAX) {
      issues.push({
        type: 'less_than_equal',
        loc: loc('temperature'),
        msg: `Input should be less than or equal to ${TEMPERATURE_MAX}`,
        input: t,
        ctx: { le: TEMPERATURE_MAX },
      });
    } else {
      temperature = t;
    }
  }
  if (issues.length > 0 || prompt === undefined || modelName === undefined) {
    return { ok: false, issues };
  }
  return { ok: true, value: { prompt, queryOnly, modelName, stream, useRag, sequentialBudget, parallelBudget, temperature } };
}

/**
 * The deterministic answer: same prompt + model -> same text. A little markdown, a code block and non-ASCII
 * (accents, an emoji, CJK) so multi-byte UTF-8 sequences get split across chunks.
 */
export function composeAnswer(request: InferenceRequest): string {
  const digest = createHash('sha256').update(`${request.modelName}\n${request.prompt}`).digest();
  const topics = ['caching', 'retries', 'parsing', 'tokenization', 'scheduling', 'indexing', 'sampling', 'batching'];
  const topic = topics[digest[0]! % topics.length]!;
  const n = digest.readUInt16BE(1) % 1000;
  const confidence = (0.5 + (digest[3]! % 50) / 100).toFixed(2);
  const echo = request.prompt.replace(/\s+/g, ' ').trim().slice(0, 60);
  const lines = [
    `### Answer from ${request.modelName}`,
    '',
    `You asked: “${echo}”. The short version: it depends on **${topic}** — the café-style answer is fine ✅ 🚀 (简体).`,
    '',
    '```ts',
    `export function answer(): number {`,
    `  return ${n}; // naïve but correct`,
    '}',
    '```',
    '',
    `- Budget: ${request.sequentialBudget} sequential × ${request.parallelBudget} parallel`,
    `- Confidence: ${confidence}`,
  ];
  if (request.useRag) {
    lines.push('', `Sources: [1] handbook.pdf (p. ${(digest[4]! % 40) + 1}), [2] notes.docx`);
  }
  return lines.join('\n');
}

/** The deterministic reasoning written before the answer (when `reasoning` is not 'none'): a few sentences. */
export function composeReasoning(request: InferenceRequest): string {
  const echo = request.prompt.replace(/\s+/g, ' ').trim().slice(0, 40);
  return [
    `The question is about “${echo}”.`,
    `With ${request.sequentialBudget} sequential × ${request.parallelBudget} parallel steps, weigh the trade-offs first,`,
    'then check the edge cases, then write a short answer with one example.',
  ].join(' ');
}

/** The answer's text with reasoning inline (`<think>` first), as a model that writes its thinking into its answer. */
export function inlineReasoning(reasoning: string, answer: string): string {
  return `<think>\n${reasoning}\n</think>\n\n${answer}`;
}

/** Longest token we emit; longer words (and whitespace-free responseText) are chopped. */
const MAX_TOKEN_CHARS = 16;

/** Splits text into tokens whose concatenation is exactly the text (never inside a surrogate pair). */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const re = /\s*\S+|\s+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    let piece = m[0];
    while (piece.length > MAX_TOKEN_CHARS) {
      let cut = MAX_TOKEN_CHARS;
      const code = piece.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) {
        cut -= 1; // keep the high surrogate with its low surrogate
      }
      tokens.push(piece.slice(0, cut));
      piece = piece.slice(cut);
    }
    if (piece.length > 0) {
      tokens.push(piece);
    }
  }
  return tokens;
}

/** Tokens of exactly `chars` characters (the last may be shorter), never cut inside a surrogate pair (bench sizes). */
export function sliceTokens(text: string, chars: number): string[] {
  const tokens: string[] = [];
  const size = Math.max(1, Math.floor(chars));
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + size);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) {
      end = end - 1 > at ? end - 1 : end + 1; // keep the pair whole
    }
    tokens.push(text.slice(at, end));
    at = end;
  }
  return tokens;
}

/** The tokens a response is streamed as: words (default) or fixed-size slices (`streamTokenChars`). */
export function tokensOf(text: string, tokenChars = 0): string[] {
  return tokenChars > 0 ? sliceTokens(text, tokenChars) : tokenize(text);
}

function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

function framingFor(state: State, key: string, req: IncomingMessage): Framing {
  const header = req.headers['x-emulator-framing'];
  const value = (Array.isArray(header) ? header[0] : header)?.toLowerCase();
  if (value === 'sse' || value === 'ndjson' || value === 'text') {
    return value;
  }
  return keyConfig(state, key).framing ?? 'sse';
}

const CONTENT_TYPES: Record<Framing, string> = {
  sse: 'text/event-stream; charset=utf-8',
  ndjson: 'application/x-ndjson',
  text: 'text/plain; charset=utf-8',
};

/** One token's frame; a reasoning token (`thinking`) in the form the emulator is set to ('field' or 'event'). */
function frameToken(framing: Framing, token: string, thinking = false, form: ReasoningForm = 'none'): string {
  switch (framing) {
    case 'sse':
      if (thinking && form === 'event') return `event: reasoning\ndata: ${JSON.stringify({ token })}\n\n`;
      return `data: ${JSON.stringify(thinking ? { reasoning: token } : { token })}\n\n`;
    case 'ndjson':
      if (form === 'event') return `${JSON.stringify({ channel: thinking ? 'analysis' : 'final', token })}\n`;
      return `${JSON.stringify(thinking ? { reasoning: token } : { token })}\n`;
    case 'text':
      return token;
  }
}

/** Waits for 'drain' (or close). Returns false if the client went away. */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

function alive(res: ServerResponse): boolean {
  return !res.destroyed && !res.writableEnded;
}

/**
 * Writes one frame. When the encoded frame contains a multi-byte character, it goes out as two chunks split inside
 * that character, so clients that decode each chunk on its own (instead of with a streaming decoder) break visibly.
 */
async function writeFrame(res: ServerResponse, frame: string, gapMs = 0): Promise<boolean> {
  const bytes = Buffer.from(frame, 'utf8');
  let split = -1;
  for (let i = 1; i < bytes.length; i++) {
    if ((bytes[i]! & 0xc0) === 0x80) {
      split = i;
      break;
    }
  }
  const parts = split > 0 ? [bytes.subarray(0, split), bytes.subarray(split)] : [bytes];
  for (let i = 0; i < parts.length; i++) {
    if (!alive(res)) {
      return false;
    }
    if (!res.write(parts[i]) && !(await drained(res))) {
      return false;
    }
    if (i < parts.length - 1) {
      // Separate the halves in time so they travel in different TCP segments / HTTP chunks and reach the client
      // as separate reads.
      if (gapMs > 0) {
        if (!(await sleepUnlessClosed(res, gapMs))) {
          return false;
        }
      } else {
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }
  return alive(res);
}

/** Every this many tokens an SSE stream carries a `: keep-alive` comment (clients must ignore comments). */
const KEEPALIVE_EVERY = 8;

/**
 * Every byte of a complete stream (no scripted error) as one string, frame after frame: what the paced path writes
 * and what the batched path (`streamChunkBytes`) sends. Exported so benchmarks can size a response exactly.
 */
export function framedStream(framing: Framing, tokens: string[]): string {
  const parts: string[] = [];
  if (framing === 'sse') {
    parts.push(': keep-alive\n\n');
  }
  for (let i = 0; i < tokens.length; i++) {
    if (framing === 'sse' && i > 0 && i % KEEPALIVE_EVERY === 0) {
      parts.push(': keep-alive\n\n');
    }
    parts.push(frameToken(framing, tokens[i]!));
  }
  if (framing === 'sse') {
    parts.push('data: [DONE]\n\n');
  } else if (framing === 'ndjson') {
    parts.push(`${JSON.stringify({ done: true })}\n`);
  }
  return parts.join('');
}

/** The last batched body built: a benchmark asks for the same multi-MB answer many times. */
let batchedCache: { text: string; framing: Framing; tokenChars: number; body: Buffer } | undefined;

function batchedBody(text: string, framing: Framing, tokenChars: number): Buffer {
  const c = batchedCache;
  if (c && c.framing === framing && c.tokenChars === tokenChars && c.text === text) {
    return c.body;
  }
  const body = Buffer.from(framedStream(framing, tokensOf(text, tokenChars)), 'utf8');
  batchedCache = { text, framing, tokenChars, body };
  return body;
}

/** Benchmark pacing: the whole framed stream in writes of `chunkBytes`, back to back, with backpressure. */
async function streamBatched(res: ServerResponse, framing: Framing, body: Buffer, chunkBytes: number): Promise<void> {
  res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[framing],
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  });
  const size = Math.max(1, Math.floor(chunkBytes));
  for (let at = 0; at < body.length; at += size) {
    if (!alive(res)) {
      return;
    }
    if (!res.write(body.subarray(at, at + size)) && !(await drained(res))) {
      return;
    }
  }
  if (alive(res)) {
    res.end();
  }
}
/** Tokens sent before a scripted mid-stream error. */
const TOKENS_BEFORE_ERROR = 3;

/**
 * When each token is due: token i at `base + (i - baseIndex + 1) * interval`, counted from the start of the stream, so
 * the average rate is the configured one even though a timer fires at most about once a millisecond (a 0.5 ms interval
 * means two or three tokens a tick). A change of `tokenIntervalMs` while a stream runs starts a new schedule from the
 * next token.
 */
class TokenSchedule {
  private interval = Number.NaN;
  private base = 0;
  private baseIndex = 0;

  constructor(private readonly state: State) {}

  /** Milliseconds until token `index` is due (≤ 0: due now); reads the interval every time: configure() may change it. */
  waitFor(index: number, now: number): number {
    const interval = this.state.options.tokenIntervalMs;
    if (interval !== this.interval) {
      this.interval = interval;
      this.base = now;
      this.baseIndex = index;
    }
    return this.base + (index - this.baseIndex + 1) * interval - now;
  }

  get intervalMs(): number {
    return this.interval;
  }
}

/**
 * `thinking`: the first this many tokens are reasoning, framed in `form`. `thinkMs`: silence before the first byte
 * (headers included).
 */
async function streamAnswer(
  state: State,
  res: ServerResponse,
  framing: Framing,
  tokens: string[],
  failMidStream: boolean,
  thinking = 0,
  form: ReasoningForm = 'none',
): Promise<void> {
  if (state.options.thinkMs > 0 && !(await sleepUnlessClosed(res, state.options.thinkMs))) {
    return;
  }
  res.writeHead(200, {
    'Content-Type': CONTENT_TYPES[framing],
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
  });
  if (framing === 'sse' && !(await writeFrame(res, ': keep-alive\n\n'))) {
    return;
  }
  const limit = failMidStream ? Math.min(TOKENS_BEFORE_ERROR, tokens.length) : tokens.length;
  const schedule = new TokenSchedule(state);
  for (let i = 0; i < limit;) {
    if (!(await untilTokenDue(res, schedule, i))) {
      return;
    }
    const interval = schedule.intervalMs;
    const frames: string[] = [];
    const first = i;
    const now = performance.now();
    do {
      if (framing === 'sse' && i > 0 && i % KEEPALIVE_EVERY === 0) {
        frames.push(': keep-alive\n\n');
      }
      frames.push(frameToken(framing, tokens[i]!, i < thinking, form));
      i++;
    } while (interval > 0 && i < limit && schedule.waitFor(i, now) <= 0);
    if (state.options.recordTokenWrites) {
      // Every token of a batch is stamped with the batch's write time: latency is measured from when a token really
      // left, so batching hides none of it.
      const writtenAt = performance.timeOrigin + performance.now();
      for (let k = first; k < i; k++) state.tokenWrites.push(writtenAt);
    }
    if (!(await writeFrame(res, frames.join(''), Math.min(20, Math.floor(interval / 2))))) {
      return;
    }
  }
  if (failMidStream) {
    const error = { error: { message: 'Model backend failed mid-stream (emulated)', type: 'server_error' } };
    if (framing === 'sse') {
      await writeFrame(res, `event: error\ndata: ${JSON.stringify(error)}\n\n`);
      res.end();
    } else if (framing === 'ndjson') {
      await writeFrame(res, `${JSON.stringify(error)}\n`);
      res.end();
    } else {
      // Plain text has no way to say "error": the connection just dies without the terminating chunk.
      res.destroy();
    }
    return;
  }
  if (framing === 'sse') {
    await writeFrame(res, 'data: [DONE]\n\n');
  } else if (framing === 'ndjson') {
    await writeFrame(res, `${JSON.stringify({ done: true })}\n`);
  }
  if (alive(res)) {
    res.end();
  }
}

/** How often a held inference request looks whether it is let go (holdInferenceAfter). */
const HOLD_CHECK_MS = 20;

/**
 * Whether this request is answered now: counts holdInferenceAfter down, or waits while it is 0 (see its note in
 * types.ts). False when the client went away meanwhile.
 */
async function inferenceTurn(state: State, res: ServerResponse): Promise<boolean> {
  // A held request let go by a new count takes a turn of it, as a new request does: n more means n more.
  for (;;) {
    if (state.options.holdInferenceAfter < 0 || state.closed) return true;
    if (state.options.holdInferenceAfter > 0) {
      state.options.holdInferenceAfter--;
      return true;
    }
    if (!(await sleepUnlessClosed(res, HOLD_CHECK_MS))) return false;
  }
}

export async function handleInference(state: State, key: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readJsonObject(req, res);
  if (!body.ok) {
    return;
  }
  const checked = validateInference(body.value);
  if (!checked.ok) {
    sendValidation(res, checked.issues);
    return;
  }
  const request = checked.value;
  const { modelName, prompt, queryOnly, sequentialBudget, parallelBudget, useRag } = request;
  state.recorder.noteInference(req, { modelName, prompt, queryOnly, sequentialBudget, parallelBudget, useRag });
  if (!hasModel(state, key, modelNamed(state, key, request.modelName))) {
    sendDetail(res, 404, `Model '${request.modelName}' is not available for this API key`);
    return;
  }
  if (!(await inferenceTurn(state, res))) return;
  const answer = state.options.responseTextByModel?.[modelName] ?? state.options.responseText ?? composeAnswer(request);
  const form = state.options.reasoning;
  const reasoning = form === 'none' ? '' : (state.options.reasoningText ?? composeReasoning(request));
  const failMidStream = request.prompt.includes(STREAM_ERROR_MARKER);
  const { streamChunkBytes, streamTokenChars, tokenIntervalMs } = state.options;
  const framing = framingFor(state, key, req);
  // Inline reasoning is the answer's own text; a plain-text stream has no fields or events to carry it otherwise.
  const inline = form === 'inline' || (form !== 'none' && request.stream && framing === 'text');
  const text = inline ? inlineReasoning(reasoning, answer) : answer;
  if (state.options.shape !== 'default') {
    // Every style's framing carries reasoning apart, so only 'inline' puts it in the text.
    const styledText = form === 'inline' ? inlineReasoning(reasoning, answer) : answer;
    await answerStyled(state, res, request, framing, styledText, form === 'inline' ? '' : reasoning, failMidStream);
    return;
  }
  if (request.stream && !failMidStream && streamChunkBytes > 0 && tokenIntervalMs === 0 && (form === 'none' || inline)) {
    await streamBatched(res, framing, batchedBody(text, framing, streamTokenChars), streamChunkBytes);
    return;
  }
  const tokens = tokensOf(text, streamTokenChars);
  if (!request.stream) {
    if (failMidStream) {
      sendDetail(res, 502, 'Model backend failed (emulated)');
      return;
    }
    if (!(await waitForAnswer(state, res, tokens.length))) return;
    const usage = { prompt_tokens: countWords(request.prompt), completion_tokens: tokens.length };
    if (form === 'event') {
      const content = [
        { type: 'reasoning', text: reasoning },
        { type: 'text', text: answer },
      ];
      sendJson(res, 200, { content, model_name: request.modelName, usage });
    } else {
      sendJson(res, 200, { ...(form === 'field' ? { reasoning } : {}), response: text, model_name: request.modelName, usage });
    }
    return;
  }
  if (inline || form === 'none') {
    await streamAnswer(state, res, framing, tokens, failMidStream);
    return;
  }
  const thinking = tokensOf(reasoning, streamTokenChars);
  await streamAnswer(state, res, framing, [...thinking, ...tokens], failMidStream, thinking.length, form);
}

/**
 * A whole-service style's answer (option `shape`, styles.ts): the same text, reasoning, pacing, thinking silence and
 * scripted mid-stream failure as the default's, in the style's bodies and frames. `reasoning` is '' when there is none
 * or when it is already inline in `text`.
 */
async function answerStyled(
  state: State,
  res: ServerResponse,
  request: InferenceRequest,
  framing: Framing,
  text: string,
  reasoning: string,
  failMidStream: boolean,
): Promise<void> {
  const { streamTokenChars } = state.options;
  const tokens = tokensOf(text, streamTokenChars);
  if (!request.stream) {
    if (failMidStream) {
      sendDetail(res, 502, 'Model backend failed (emulated)');
      return;
    }
    if (!(await waitForAnswer(state, res, tokens.length))) return;
    const usage = { prompt: countWords(request.prompt), completion: tokens.length };
    sendJson(res, 200, styledAnswer(state.options.shape, request, text, reasoning, usage));
    return;
  }
  const framer = styledStream(state.options.shape, framing, request);
  if (!framer) {
    return;
  }
  const thinking = reasoning === '' ? [] : tokensOf(reasoning, streamTokenChars);
  await streamStyled(state, res, framer, [...thinking, ...tokens], thinking.length, failMidStream);
}

/** streamAnswer's pacing (TokenSchedule, batched due tokens, split multi-byte frames) with a style's frames. */
async function streamStyled(
  state: State,
  res: ServerResponse,
  framer: StreamFramer,
  tokens: string[],
  thinking: number,
  failMidStream: boolean,
): Promise<void> {
  if (state.options.thinkMs > 0 && !(await sleepUnlessClosed(res, state.options.thinkMs))) {
    return;
  }
  res.writeHead(200, { 'Content-Type': framer.contentType, 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' });
  const opening = framer.open().join('');
  if (opening !== '' && !(await writeFrame(res, opening))) {
    return;
  }
  const limit = failMidStream ? Math.min(TOKENS_BEFORE_ERROR, tokens.length) : tokens.length;
  const schedule = new TokenSchedule(state);
  for (let i = 0; i < limit;) {
    if (!(await untilTokenDue(res, schedule, i))) {
      return;
    }
    const interval = schedule.intervalMs;
    const frames: string[] = [];
    const now = performance.now();
    do {
      frames.push(...framer.token(tokens[i]!, i, tokens.length, i < thinking));
      i++;
    } while (interval > 0 && i < limit && schedule.waitFor(i, now) <= 0);
    if (!(await writeFrame(res, frames.join(''), Math.min(20, Math.floor(interval / 2))))) {
      return;
    }
  }
  const ending = failMidStream ? framer.error('Model backend failed mid-stream (emulated)') : framer.close();
  await writeFrame(res, ending.join(''));
  if (alive(res)) {
    res.end();
  }
}

/**
 * A non-streamed answer takes "generation time": the configured delay, else a fraction of the streamed duration.
 * Resolves false when the client went away meanwhile.
 */
async function waitForAnswer(state: State, res: ServerResponse, tokens: number): Promise<boolean> {
  const delay =
    state.options.answerDelayMs > 0
      ? state.options.answerDelayMs
      : Math.min(2000, Math.floor((state.options.tokenIntervalMs * tokens) / 4));
  return delay <= 0 || sleepUnlessClosed(res, delay);
}

/**
 * Waits until token `i` is due. Interval 0: one token per turn of the event loop. Otherwise sleeps until it is due (a
 * timer may fire late: then every token already due goes out in this tick's write). False when the client has gone.
 */
async function untilTokenDue(res: ServerResponse, schedule: TokenSchedule, i: number): Promise<boolean> {
  const wait = schedule.waitFor(i, performance.now());
  const stillThere =
    schedule.intervalMs > 0 && wait > 0
      ? await sleepUnlessClosed(res, wait)
      : await new Promise<boolean>((r) => setImmediate(() => r(alive(res))));
  return stillThere && alive(res);
}
