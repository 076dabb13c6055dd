// What each whole-service style of the emulator (option `shape`, test/service/styles.ts) means, read by hand: the test's
// own knowledge of each style, never the project's readers. The emulator's style tests check the bodies with it; the
// client-level journey tests use it to know what the client should have read.
import type { ServiceShape } from '../service/styles';

export type StyledShape = Exclude<ServiceShape, 'default'>;
export const STYLED_SHAPES: readonly StyledShape[] = ['openai-like', 'google-like', 'nested-phase'];

/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment,
   @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-argument --
   each style's bodies are read by hand, field by field: the point is not to share a reader's types */
type Body = any;

/** Progress of the default's finetune phases, in order: a style's words map onto them (rank 2 covers generating and training). */
export const PHASE_RANK = { queued: 0, extracting: 1, running: 2, completed: 3, failed: 4 } as const;

export interface StyleReading {
  /** Model names with kinds from a model list body. */
  models(body: Body): { name: string; kind: 'base' | 'custom'; baseModel?: string }[];
  /** What a client sends as a base model's name (Google's `models/<id>`). */
  baseName(name: string): string;
  /** The job id a finetune start answer gives. */
  startedId(body: Body): string;
  /** The status word of a finetune status record mapped to the default's phase rank. */
  rank(body: Body): number;
  /** Percent done (0..100) of a status record when it says so. */
  progress(body: Body): number | undefined;
  /** The made model's name in a finished status record. */
  made(body: Body): string | undefined;
  /** A failed status record's error text. */
  failure(body: Body): string | undefined;
  /** The intermediate word of an evaluation status. */
  evaluationRunning: string;
  /** A failed evaluation's error text. */
  evaluationError(body: Body): string | undefined;
  /** The signed URL in a download answer. */
  downloadUrl(body: Body): string;
  /** An error body's message. */
  errorMessage(body: Body): string;
  /** A non-streamed answer's text and reasoning. */
  answer(body: Body): { answer: string; reasoning: string };
  /** Framing names a key may ask for, with the wire framing each gives in this style. */
  framings: { key: 'sse' | 'ndjson' | 'text'; wire: 'sse' | 'ndjson' | 'json-array' }[];
  /** One stream event's pieces (answer or reasoning text), or undefined for an event with none. */
  piece(event: Body): { kind: 'answer' | 'reasoning'; text: string } | undefined;
}

const ranks = (table: Record<string, number>) => (word: string) => {
  const r = table[word];
  if (r === undefined) throw new Error(`unknown status word ${word}`);
  return r;
};

const openaiRank = ranks({ queued: 0, validating_files: 1, running: 2, succeeded: 3, failed: 4 });
const googleRank = ranks({ JOB_STATE_QUEUED: 0, JOB_STATE_PENDING: 0, JOB_STATE_RUNNING: 2, JOB_STATE_SUCCEEDED: 3, JOB_STATE_FAILED: 4 });
const nestedRank = ranks({ pending: 0, ingesting: 1, generating: 2, tuning: 2, ready: 3, error: 4 });

export const STYLES: Record<StyledShape, StyleReading> = {
  'openai-like': {
    models: (b) =>
      b.data.map((m: Body) => ({
        name: m.id,
        kind: m.owned_by === 'system' ? 'base' : 'custom',
        ...(m.id.startsWith('ft:') ? { baseModel: m.id.split(':')[1] } : {}),
      })),
    baseName: (n) => n,
    startedId: (b) => b.id,
    rank: (b) => openaiRank(b.status),
    progress: () => undefined,
    made: (b) => b.fine_tuned_model ?? undefined,
    failure: (b) => b.error?.message,
    evaluationRunning: 'in_progress',
    evaluationError: (b) => b.error?.message,
    downloadUrl: (b) => b.content_url,
    errorMessage: (b) => b.error.message,
    answer: (b) => ({ answer: b.choices[0].message.content, reasoning: b.choices[0].message.reasoning_content ?? '' }),
    framings: [
      { key: 'sse', wire: 'sse' },
      { key: 'ndjson', wire: 'sse' },
    ],
    piece: (e) => {
      const delta = e.choices?.[0]?.delta;
      if (typeof delta?.reasoning_content === 'string' && delta.reasoning_content) {
        return { kind: 'reasoning', text: delta.reasoning_content };
      }
      if (typeof delta?.content === 'string' && delta.content) return { kind: 'answer', text: delta.content };
      return undefined;
    },
  },
  'google-like': {
    models: (b) => [
      ...b.models.map((m: Body) => ({ name: m.name, kind: 'base' as const })),
      ...(b.tunedModels ?? []).map((m: Body) => ({ name: m.name, kind: 'custom' as const, baseModel: m.baseModel })),
    ],
    baseName: (n) => `models/${n}`,
    startedId: (b) => b.name,
    rank: (b) => (b.done && b.error ? 4 : googleRank(b.metadata.state)),
    progress: (b) => b.metadata?.completedPercent ?? (b.done ? 100 : 0),
    made: (b) => b.response?.name,
    failure: (b) => b.error?.message,
    evaluationRunning: 'running',
    evaluationError: (b) => b.error?.message,
    downloadUrl: (b) => b.mediaLink,
    errorMessage: (b) => b.error.message,
    answer: (b) => {
      const parts: Body[] = b.candidates[0].content.parts;
      return {
        answer: parts
          .filter((p) => !p.thought)
          .map((p) => p.text)
          .join(''),
        reasoning: parts
          .filter((p) => p.thought)
          .map((p) => p.text)
          .join(''),
      };
    },
    framings: [
      { key: 'text', wire: 'json-array' },
      { key: 'ndjson', wire: 'ndjson' },
      { key: 'sse', wire: 'sse' },
    ],
    piece: (e) => {
      const part = e.candidates?.[0]?.content?.parts?.[0];
      if (!part || !part.text) return undefined;
      return { kind: part.thought ? 'reasoning' : 'answer', text: part.text };
    },
  },
  'nested-phase': {
    models: (b) =>
      b.results.items.map((i: Body) => ({
        name: i.model.id,
        kind: i.model.tier === 'foundation' ? 'base' : 'custom',
        ...(i.model.parent ? { baseModel: i.model.parent } : {}),
      })),
    baseName: (n) => n,
    startedId: (b) => b.ticket.id,
    rank: (b) => nestedRank(b.phase),
    progress: (b) =>
      b.percent !== undefined ? Number(String(b.percent).replace('%', '')) : 60 + (Number(b.steps.done) / Number(b.steps.total)) * 39,
    made: (b) => b.published_as,
    failure: (b) => b.problem?.summary,
    evaluationRunning: 'scoring',
    evaluationError: (b) => b.error?.problem?.summary,
    downloadUrl: (b) => b.artifact.location.href,
    errorMessage: (b) => b.errors.map((e: Body) => e.detail).join('; '),
    answer: (b) => ({ answer: b.result.answer.text, reasoning: b.result.thinking?.text ?? '' }),
    framings: [
      { key: 'sse', wire: 'sse' },
      { key: 'ndjson', wire: 'ndjson' },
    ],
    piece: (e) => {
      if (e.type === 'token') return { kind: 'answer', text: e.token };
      if (e.type === 'thinking') return { kind: 'reasoning', text: e.token };
      return undefined;
    },
  },
};

/** The events of a whole streamed body in a wire framing (SSE `data:` payloads, NDJSON lines, a JSON array). */
export function streamEvents(wire: 'sse' | 'ndjson' | 'json-array', text: string): Body[] {
  if (wire === 'json-array') return JSON.parse(text);
  if (wire === 'ndjson') {
    return text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
  }
  const events: Body[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (data === '' || data === '[DONE]') continue;
    events.push(JSON.parse(data));
  }
  return events;
}
