// The inline-tag splitter (answerText.ts's InlineReasoning) works in proportion to what it is given and holds back a
// bounded amount, whitespace included: a model writes thousands of newline tokens while it thinks. Work is counted,
// never timed: the characters the string methods are asked to examine while the splitter runs (stringWork.ts),
// compared with as many ordinary pieces in the same test. A piece that rescans what came before shows at once.
import { strict as assert } from 'node:assert';
import { InlineReasoning, mergePieces, type InferencePiece } from '../../src/api/answerText';
import { decodePieces, DEFAULT_MAX_EVENT_BYTES } from '../../src/api/stream';
import { StringWork } from './stringWork';

const N = 100_000;
/** Whitespace pieces may cost this many times what ordinary pieces cost (both about a dozen characters a piece). */
const RATIO = 3;
/** What the splitter may hold back at most, in characters: answerText.ts's bound, with room for a partial tag. */
const HELD_BOUND = 64 * 1024 + 16;

interface Run {
  out: InferencePiece[];
  work: number;
  /** Pieces fed before the work passed the budget (N when it never did). */
  fed: number;
  /** The most input the splitter held back (given but not yet given out) after any piece. */
  maxHeld: number;
}

/**
 * Feeds `prefix` (not counted), `count` copies of `piece` (counted), then `suffix`; stops counting early once the work
 * passes `budget` (a splitter that rescans would otherwise take minutes to show it).
 */
function feed(prefix: string[], piece: string, count: number, suffix: string[] = [], budget = Infinity): Run {
  const inline = new InlineReasoning();
  const out: InferencePiece[] = [];
  const take = (pieces: InferencePiece[]) => {
    for (const p of pieces) out.push(p);
  };
  for (const p of prefix) take(inline.push(p));
  let given = 0;
  let taken = out.reduce((n, p) => n + p.text.length, 0);
  let maxHeld = 0;
  const work = new StringWork();
  let fed = 0;
  work.start();
  try {
    for (; fed < count && work.count <= budget; fed++) {
      const pieces = inline.push(piece);
      given += piece.length;
      for (const p of pieces) taken += p.text.length;
      take(pieces);
      maxHeld = Math.max(maxHeld, given - taken);
    }
  } finally {
    work.stop();
  }
  for (const p of suffix) take(inline.push(p));
  take(inline.end());
  return { out: mergePieces(out), work: work.count, fed, maxHeld };
}

const answer = (text: string): InferencePiece => ({ kind: 'answer', text });
const reasoning = (text: string): InferencePiece => ({ kind: 'reasoning', text });
const textOf = (pieces: InferencePiece[], kind: InferencePiece['kind']) =>
  pieces
    .filter((p) => p.kind === kind)
    .map((p) => p.text)
    .join('');

describe('inline reasoning: whitespace costs what its length costs', () => {
  // The reference: as many ordinary pieces inside a block, where each is looked at for the close tag.
  let ordinary: number;
  before(() => {
    const run = feed(['<think>plan'], 'x', N);
    assert.equal(textOf(run.out, 'reasoning'), 'plan' + 'x'.repeat(N));
    ordinary = run.work;
    assert.ok(ordinary >= N, `each ordinary piece is examined at least once (${ordinary})`);
  });

  function assertLinear(run: Run, what: string): void {
    assert.equal(
      run.fed,
      N,
      `${what}: after ${run.fed} of ${N} pieces the work was already ${run.work} characters, ` +
        `over ${RATIO} times what ${N} ordinary pieces cost (${ordinary})`,
    );
    assert.ok(run.work <= RATIO * ordinary, `${what}: ${run.work} characters against ${ordinary} for ordinary pieces`);
  }

  it(`${N} whitespace pieces before a tag: linear work, a bounded amount held, every one kept in the answer`, () => {
    for (const ws of [' ', '\n', ' \n']) {
      const run = feed([], ws, N, ['Answer'], RATIO * ordinary);
      assertLinear(run, `before a tag, ${JSON.stringify(ws)}`);
      assert.ok(run.maxHeld <= HELD_BOUND, `held back ${run.maxHeld} characters`);
      assert.deepEqual(run.out, [answer(ws.repeat(N) + 'Answer')]);
    }
    // As many newlines as a model writes before its tag still belong to the tag.
    assert.deepEqual(feed([], '\n', 1000, ['<think>plan</think>Answer']).out, [reasoning('plan'), answer('Answer')]);
  });

  it(`${N} whitespace pieces inside a block: linear work, a bounded amount held, the reasoning and answer intact`, () => {
    for (const ws of [' ', '\n', ' \n']) {
      const run = feed(['<think>plan'], ws, N, ['more</think>Answer'], RATIO * ordinary);
      assertLinear(run, `inside, ${JSON.stringify(ws)}`);
      assert.ok(run.maxHeld <= HELD_BOUND, `held back ${run.maxHeld} characters`);
      assert.deepEqual(run.out, [reasoning('plan' + ws.repeat(N) + 'more'), answer('Answer')]);
      // Whitespace that ends the block belongs to its tag (beyond the bound held, it is given out as reasoning).
      const closed = feed(['<think>plan'], ws, N, ['</think>Answer']);
      assert.equal(closed.out.length, 2);
      assert.equal(closed.out[0]!.text.trimEnd(), 'plan');
      assert.deepEqual(closed.out[1], answer('Answer'));
    }
    // As many newlines as a model writes at the end of its reasoning are still left out of it.
    assert.deepEqual(feed(['<think>plan'], '\n', 1000, ['</think>Answer']).out, [reasoning('plan'), answer('Answer')]);
  });

  it(`${N} whitespace pieces after the close tag: linear work, left out before the answer`, () => {
    for (const ws of [' ', '\n']) {
      const run = feed(['<think>plan</think>'], ws, N, ['Answer'], RATIO * ordinary);
      assertLinear(run, `after the close tag, ${JSON.stringify(ws)}`);
      assert.deepEqual(run.out, [reasoning('plan'), answer('Answer')]);
    }
  });
});

describe('a whitespace-only text/plain stream', () => {
  it('goes through whole, holding back no more than the framing sniffer and the splitter each may', async () => {
    const chunk = Buffer.from(' \n'.repeat(32 * 1024)); // 64 KiB
    const total = 3 * DEFAULT_MAX_EVENT_BYTES; // 24 MiB
    // The sniffer holds up to its cap before it calls the body plain text; the splitter then at most its own bound.
    const bound = DEFAULT_MAX_EVENT_BYTES + chunk.length + HELD_BOUND;
    let sent = 0;
    let received = 0;
    let maxHeld = 0;
    async function* body(): AsyncGenerator<Uint8Array> {
      while (sent < total) {
        maxHeld = Math.max(maxHeld, sent - received);
        // Stop at once rather than feed a client that keeps everything (it then rescans it per chunk).
        if (sent - received > bound) return;
        sent += chunk.length;
        yield chunk;
      }
    }
    const work = new StringWork();
    work.start();
    try {
      for await (const p of decodePieces(body(), { contentType: 'text/plain' })) {
        assert.equal(p.kind, 'answer');
        received += p.text.length;
      }
    } finally {
      work.stop();
    }
    assert.ok(maxHeld <= bound, `held back ${maxHeld} bytes of ${sent} sent (bound ${bound})`);
    assert.equal(received, total, 'every byte of whitespace comes out as the answer');
    assert.ok(work.count <= RATIO * total, `${work.count} characters examined for ${total} bytes`);
  });
});
