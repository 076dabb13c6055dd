// Malformed and randomly mutated response bodies produce typed errors, never a crash or an untyped throw.
import { strict as assert } from 'node:assert';
import { ApiError } from '../../src/api/errors';
import type { ServiceClient } from '../../src/api/client';
import { baseRequest, clientFor, collect, tempDir, useEmulator, KEY } from './helpers';

/** Small deterministic PRNG (mulberry32) so a failure can be replayed from its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [null, 0, -1, 1e308, '', 'x', true, [], {}, [null], { a: [] }, '\u0000', 'ü😀', NaN];

function mutateValue(v: unknown, r: () => number, depth = 0): unknown {
  if (depth > 6) return v;
  if (r() < 0.15) return ODD_VALUES[Math.floor(r() * ODD_VALUES.length)];
  if (Array.isArray(v)) {
    const out = v.map((x) => mutateValue(x, r, depth + 1));
    if (r() < 0.2) out.push(ODD_VALUES[Math.floor(r() * ODD_VALUES.length)]);
    return out;
  }
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (r() < 0.1) continue; // drop a field
      out[r() < 0.05 ? `${k}_` : k] = mutateValue(x, r, depth + 1);
    }
    return out;
  }
  return v;
}

function mutateText(text: string, r: () => number): string {
  const b = Buffer.from(text);
  const kind = Math.floor(r() * 4);
  if (kind === 0) return b.subarray(0, Math.floor(r() * b.length)).toString('utf8'); // truncated
  if (kind === 1) {
    for (let i = 0; i < 3; i++) b[Math.floor(r() * b.length)] = Math.floor(r() * 256); // flipped bytes
    return b.toString('latin1');
  }
  if (kind === 2) return `${text.slice(0, Math.floor(r() * text.length))}}{][,"${text.slice(Math.floor(r() * text.length))}`;
  return JSON.stringify(mutateValue(JSON.parse(text), r));
}

interface Case {
  path: string;
  valid: unknown;
  call: (c: ServiceClient) => Promise<unknown>;
  contentType?: string;
}

describe('client: malformed and mutated bodies', function () {
  this.timeout(60_000);
  const ctx = useEmulator();
  const tmp = tempDir();
  const result = { dataset_name: 'd', model_name: 'm', split: 'test', correct: 3, total: 4, accuracy: 0.75, judge_model: 'j' };
  const cases: Case[] = [
    { path: '/cr/get_allowed_models', valid: { models: [{ model_name: 'a', type: 'base' }, 'b'] }, call: (c) => c.listModels() },
    { path: '/cr/provider_predict_platform_base_oss', valid: { response: 'hi', usage: { n: 1 } }, call: (c) => c.infer({ ...baseRequest, modelName: 'm', stream: false }) },
    { path: '/cr/generate_questions_status', valid: { job_id: 'j', status: 'training', progress: 40, message: 'x' }, call: (c) => c.getFinetuneStatus('j') },
    { path: '/cr/finetune_model/evaluate_async', valid: { job_id: 'j', status: 'queued' }, call: (c) => c.startEvaluation('m', 'd') },
    { path: '/cr/finetune_model/evaluate_status', valid: { status: 'completed', result }, call: (c) => c.getEvaluationStatus('j') },
    { path: '/cr/finetune_model/download', valid: { url: 'http://127.0.0.1:9/a.gguf', size: 3 }, call: (c) => c.download('m', { directory: tmp.dir, maxResumes: 0 }) },
    {
      path: '/cr/provider_predict_platform_base_oss',
      valid: 'data: {"token":"a"}\n\ndata: {"choices":[{"delta":{"content":"b"}}]}\n\ndata: [DONE]\n\n',
      contentType: 'text/event-stream',
      call: (c) => collect(c.inferStream({ ...baseRequest, modelName: 'm' })),
    },
  ];

  for (const [i, c] of cases.entries()) {
    it(`${c.path}${c.contentType ? ` (${c.contentType})` : ''}: 150 mutations, only typed errors`, async () => {
      const client = clientFor(ctx.emu, KEY, { retry: { retries: 0 } });
      const r = rng(1000 + i);
      const validText = typeof c.valid === 'string' ? c.valid : JSON.stringify(c.valid);
      let validAccepted = false;
      for (let n = 0; n < 150; n++) {
        const body = n === 0 ? validText : typeof c.valid === 'string' ? mutateSse(validText, r) : mutateText(validText, r);
        ctx.emu.faults.clear();
        ctx.emu.faults.add({ path: c.path, kind: 'body', body, contentType: c.contentType ?? 'application/json', times: 1 });
        try {
          await c.call(client);
          if (n === 0) validAccepted = true;
        } catch (e) {
          // The one property: whatever the body, the caller gets an ApiError it can show, nothing else.
          assert.ok(e instanceof ApiError, `seed ${1000 + i} #${n}: ${String(e)} for body ${JSON.stringify(body).slice(0, 200)}`);
        }
      }
      // The unmutated body must be read, or the harness proves nothing (the download case points at a closed port).
      if (!c.path.endsWith('/download')) assert.ok(validAccepted, 'the valid body was accepted');
    });
  }

  function mutateSse(text: string, r: () => number): string {
    const b = Buffer.from(text);
    for (let i = 0; i < 2; i++) b[Math.floor(r() * b.length)] = Math.floor(r() * 256);
    return r() < 0.5 ? b.toString('latin1') : b.subarray(0, Math.floor(r() * b.length)).toString('utf8');
  }
});
