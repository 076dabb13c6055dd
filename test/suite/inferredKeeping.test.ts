// ServiceProfiles keeps a part inferred from an answer only once a second answer agrees, and a service whose answers
// change shape at every call costs a bounded number of globalState writes (issue 35, info; the rule in
// src/connection/inferredKeeping.ts). In-editor: ServiceProfiles needs `vscode`. Answers are read here as the client
// reads a non-streamed one (client.ts: a StreamReading by the book's profile, then the report to the book).
import * as assert from 'node:assert/strict';
import { decodeInferenceResult } from '../../src/api/answerText';
import type { ProfileBook } from '../../src/api/profileBook';
import { StreamReading } from '../../src/api/streamReading';
import { MAX_KEEPS_PER_PART } from '../../src/connection/inferredKeeping';
import { ServiceProfiles } from '../../src/connection/serviceProfiles';
import type { Log } from '../../src/log';
import { SERVICE_PROFILES_KEY } from '../../src/storageKeys';
import { countingState, stateSettled } from './helpers';

const ORIGIN = 'https://inferred-keeping.example';

/** One non-streamed answer read as the client reads it: its answer text. */
function answerOnce(book: ProfileBook, body: unknown): string {
  const known = book.profile('answer');
  const reading = new StreamReading(known, [], 'answer');
  const pieces = decodeInferenceResult(body, true, reading);
  const report = reading.report();
  if (report) book.learned('answer', report);
  return pieces
    .filter((p) => p.kind === 'answer')
    .map((p) => p.text)
    .join('');
}

describe('service profiles: an inferred part kept once two answers agree, its writes bounded', () => {
  let logged: string[];
  const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(`warn: ${m}`) } as unknown as Log;
  beforeEach(() => {
    logged = [];
  });

  it('a first answer with only a note: the three later answers show their text, kept with one write', async () => {
    const state = countingState();
    const profiles = new ServiceProfiles(state, log);
    const book = profiles.bookFor(ORIGIN);
    assert.equal(answerOnce(book, { note: '…', meta: { id: 'x' } }), '…');
    // Whatever it was to keep is kept before the next answer comes, as seconds apart it would be.
    await stateSettled(state);
    for (let i = 0; i < 3; i++) {
      assert.equal(answerOnce(book, { text: 'real answer', note: '…' }), 'real answer', `later answer ${i + 1}`);
      await stateSettled(state);
    }
    profiles.dispose();
    assert.deepEqual(profiles.profile(ORIGIN, 'answer'), { answer: ['text'], reasoning: [], by: 'inferred' });
    assert.equal(state.writes, 1);
    assert.equal(logged.length, 1, logged.join('\n'));
  });

  it('100 answers whose shape changes at each call write nothing; at each second call, a bounded number of times', async () => {
    const every = countingState();
    const second = countingState();
    const profiles = [new ServiceProfiles(every, log), new ServiceProfiles(second, log)];
    const [a, b] = profiles.map((p) => p.bookFor(ORIGIN)) as [ProfileBook, ProfileBook];
    for (let i = 0; i < 100; i++) {
      assert.equal(answerOnce(a, { [`field${i}`]: `answer ${i}` }), `answer ${i}`);
      assert.equal(answerOnce(b, { [`field${Math.floor(i / 2)}`]: `answer ${i}` }), `answer ${i}`);
    }
    await stateSettled(every);
    await stateSettled(second);
    for (const p of profiles) p.dispose();
    assert.equal(every.writes, 0);
    assert.ok(second.writes > 0 && second.writes <= MAX_KEEPS_PER_PART, `${second.writes} writes`);
    // The stored size stays that of one part: the stream profile keeps at most 8 paths (streamReading.ts).
    const stored = JSON.stringify(second.get(SERVICE_PROFILES_KEY));
    assert.ok(stored.length < 1024, `${stored.length} characters stored: ${stored}`);
    assert.equal(logged.filter((m) => /too often/.test(m)).length, 1, logged.join('\n'));
  });
});
