// The host-side delta batcher: text goes out at once when the last message is an interval old, else at most once per
// interval (or when a size threshold is passed); nothing is lost, reordered or sent twice. Time is a fake clock, so
// rates are exact.
import { strict as assert } from 'node:assert';
import { DeltaBatcher, type BatcherClock } from '../../src/features/playground/host/deltaBatcher';

class FakeClock implements BatcherClock {
  now = 0;
  private timers = new Map<number, { at: number; fn: () => void }>();
  private next = 1;

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.set(id, { at: this.now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  time(): number {
    return this.now;
  }

  get pendingTimers(): number {
    return this.timers.size;
  }

  /** Moves time forward, firing due timers in order. */
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const due = [...this.timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].fn();
    }
    this.now = end;
  }
}

function setup(options: { intervalMs?: number; maxChars?: number } = {}) {
  const clock = new FakeClock();
  const sent: { at: number; text: string }[] = [];
  const batcher = new DeltaBatcher((text) => sent.push({ at: clock.now, text }), { clock, ...options });
  return { clock, sent, batcher };
}

describe('playground delta batcher', () => {
  it('sends the first delta at once (time to first token)', () => {
    const { sent, batcher } = setup();
    batcher.push('Hel');
    assert.deepEqual(sent, [{ at: 0, text: 'Hel' }]);
  });

  it('coalesces later deltas within the interval into one message', () => {
    const { clock, sent, batcher } = setup({ intervalMs: 20 });
    batcher.push('a');
    batcher.push('b');
    clock.advance(5);
    batcher.push('c');
    clock.advance(14);
    assert.equal(sent.length, 1);
    clock.advance(1);
    assert.deepEqual(
      sent.map((s) => s.text),
      ['a', 'bc'],
    );
    assert.equal(sent[1]?.at, 20);
  });

  it('sends at once when the last message is an interval old (a slow model: every token as it comes)', () => {
    const { clock, sent, batcher } = setup({ intervalMs: 16 });
    for (let i = 0; i < 5; i++) {
      batcher.push(`t${i}`);
      clock.advance(40); // 25 tokens a second
    }
    assert.deepEqual(
      sent,
      [0, 40, 80, 120, 160].map((at, i) => ({ at, text: `t${i}` })),
    );
    assert.equal(clock.pendingTimers, 0);
  });

  it('holds a delta that follows a message closely only for the rest of the interval', () => {
    const { clock, sent, batcher } = setup({ intervalMs: 16 });
    batcher.push('a');
    clock.advance(10);
    batcher.push('b');
    clock.advance(5);
    assert.equal(sent.length, 1);
    clock.advance(1);
    assert.deepEqual(sent, [
      { at: 0, text: 'a' },
      { at: 16, text: 'b' },
    ]);
  });

  it('keeps every character in order and bounds the message count at 2,000 deltas/s', () => {
    const intervalMs = 16;
    const { clock, sent, batcher } = setup({ intervalMs });
    const deltas: string[] = [];
    const seconds = 3;
    // One delta every 0.5 ms, each different (so a reordering or a duplicate shows), some multi-unit (emoji).
    for (let i = 0; i < 2000 * seconds; i++) {
      const delta = i % 97 === 0 ? `🚀${i}` : ` t${i}`;
      deltas.push(delta);
      batcher.push(delta);
      clock.advance(0.5);
    }
    batcher.close();
    assert.equal(sent.map((s) => s.text).join(''), deltas.join(''));
    // At most one timed flush per interval, plus the immediate first one and the final one.
    const bound = Math.ceil((seconds * 1000) / intervalMs) + 2;
    assert.ok(sent.length <= bound, `${sent.length} messages for ${deltas.length} deltas (bound ${bound})`);
    assert.ok(sent.length >= (seconds * 1000) / intervalMs / 2, `suspiciously few messages: ${sent.length}`);
    // Never two timed flushes closer than the interval.
    for (let i = 2; i < sent.length - 1; i++) {
      assert.ok(sent[i]!.at - sent[i - 1]!.at >= intervalMs, `flushes ${i - 1} and ${i} at ${sent[i - 1]!.at} and ${sent[i]!.at}`);
    }
  });

  it('sends at once when the pending text passes the size threshold', () => {
    const { clock, sent, batcher } = setup({ intervalMs: 1000, maxChars: 100 });
    batcher.push('first');
    for (let i = 0; i < 30; i++) batcher.push('0123456789');
    assert.ok(sent.length >= 3, `${sent.length}`);
    for (const s of sent.slice(1)) assert.ok(s.text.length <= 100 + 10);
    assert.equal(clock.now, 0);
    batcher.flush();
    assert.equal(sent.map((s) => s.text).join(''), `first${'0123456789'.repeat(30)}`);
  });

  it('flushes on close, leaves no timer behind and refuses text afterwards', () => {
    const { clock, sent, batcher } = setup({ intervalMs: 50 });
    batcher.push('a');
    batcher.push('b');
    assert.equal(clock.pendingTimers, 1);
    batcher.close();
    assert.deepEqual(
      sent.map((s) => s.text),
      ['a', 'b'],
    );
    assert.equal(clock.pendingTimers, 0);
    assert.throws(() => batcher.push('c'), /after close/);
    clock.advance(100);
    assert.equal(sent.length, 2);
  });

  it('ignores empty deltas and sends nothing for an empty run', () => {
    const { sent, batcher } = setup();
    batcher.push('');
    batcher.close();
    assert.deepEqual(sent, []);
  });
});
