// A stream's events cost what they hold, however many came before (issue 27): read by a kept profile, and while the
// inference holds events it cannot decide yet. Work is counted, never timed: the characters the string methods are
// asked to examine (stringWork.ts), for N events and for 2N in the same test. Work that grows with the events held
// or read before shows at once as a ratio far above 2.
import { strict as assert } from 'node:assert';
import { createDecoder } from '../../src/api/stream';
import type { InferencePiece } from '../../src/api/answerText';
import { answer, reasoning } from './streamHelpers';
import { StreamReading } from '../../src/api/streamReading';
import type { StreamProfile } from '../../src/api/profileFormat';
import { StringWork } from './stringWork';

const N = 2_000;
/** 2N events may cost this many times N events (2 when linear; the rest for the runs' fixed costs). */
const RATIO = 2.3;

/** Pushes `first` (not counted), then `count` events made by `event` one by one (counted); the deltas and the work. */
function feed(
  first: unknown[],
  event: (i: number) => unknown,
  count: number,
  known?: StreamProfile,
): { deltas: InferencePiece[]; work: number } {
  const dec = createDecoder({ contentType: 'text/event-stream', reading: new StreamReading(known) });
  const frame = (e: unknown) => Buffer.from(`data: ${JSON.stringify(e)}\n\n`);
  const deltas: InferencePiece[] = [];
  for (const e of first) for (const d of dec.push(frame(e))) deltas.push(d);
  const frames = Array.from({ length: count }, (_, i) => frame(event(i)));
  const work = new StringWork();
  work.start();
  try {
    for (const f of frames) for (const d of dec.push(f)) deltas.push(d);
  } finally {
    work.stop();
  }
  for (const d of dec.end()) deltas.push(d);
  return { deltas, work: work.count };
}

function assertLinear(run: (count: number) => { work: number }, what: string): void {
  const once = run(N).work;
  const twice = run(2 * N).work;
  assert.ok(once > 0, `${what}: work was counted`);
  assert.ok(
    twice <= RATIO * once,
    `${what}: ${2 * N} events cost ${twice} characters, ${N} cost ${once} (ratio ${(twice / once).toFixed(2)})`,
  );
}

const chunk = (i: number) => ({
  id: 'chatcmpl-9x8Yz1AbC2dEf3GhI4jKl',
  object: 'chat.completion.chunk',
  created: 1_732_000_000,
  model: 'deepseek-reasoner',
  choices: [{ index: 0, delta: i % 2 ? { content: ` w${i}` } : { reasoning_content: ` r${i}` }, finish_reason: null }],
});

describe('stream work: linear in the events', () => {
  it('read by a kept profile, each event costs the same however many came before', () => {
    const known: StreamProfile = { answer: ['choices[].delta.content'], reasoning: ['choices[].delta.reasoning_content'], by: 'inferred' };
    const run = (count: number) => feed([], chunk, count, known);
    const { deltas } = run(4);
    assert.deepEqual(deltas, [reasoning(' r0'), answer(' w1'), reasoning(' r2'), answer(' w3')]);
    assertLinear(run, 'kept profile');
  });

  it('inferred from the first events, then read by it', () => {
    assertLinear((count) => feed([], chunk, count), 'inferred');
  });

  it('events the inference cannot tell apart (each with two texts) are held in bounded number, however many come', () => {
    // After the answer: each later event holds two prose fields no event tells apart; they are held up to the bound,
    // then dropped, and never add to the cost of the next ones.
    const tie = (i: number) => ({ sources: [{ title: `Title number ${i}`, snippet: `A snippet of text ${i}` }] });
    const run = (count: number) => feed([{ token: 'It charges' }, { token: ' fast.' }], tie, count);
    assert.deepEqual(run(10).deltas, [answer('It charges'), answer(' fast.')]);
    assertLinear(run, 'held ties');
  });
});
