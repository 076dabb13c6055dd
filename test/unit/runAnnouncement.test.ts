// What the playground's live region says when a run ends (src/features/playground/page/runAnnouncement.ts).
import * as assert from 'node:assert/strict';
import { OPENING_CHARS, plainOpening, runAnnouncement } from '../../src/features/playground/page/runAnnouncement';
import { composeAnswer } from '../service/inference';

describe('playground: the end of a run, said to a screen reader', () => {
  it('says whose answer, its length and how it begins, without markdown marks or code', () => {
    const answer = composeAnswer({
      prompt: 'Why?',
      modelName: 'm',
      stream: true,
      useRag: false,
      sequentialBudget: 1,
      parallelBudget: 1,
      temperature: 0.7,
    });
    const said = runAnnouncement('m', 'done', answer);
    assert.match(
      said,
      new RegExp(`^m answered, ${answer.length} characters: Answer from m You asked: “Why\\?”\\. The short version: it depends on \\w+ `),
    );
    for (const mark of ['###', '**', '```', 'export function']) assert.ok(!said.includes(mark), `${mark} in: ${said}`);
  });

  it('keeps to the opening: a long answer is cut with an ellipsis', () => {
    const opening = plainOpening('word '.repeat(200));
    assert.equal(opening.length, OPENING_CHARS);
    assert.ok(opening.endsWith('…'));
    assert.equal(plainOpening('See [the docs](https://example.com/x) and `f()`.'), 'See the docs and f().');
    assert.equal(plainOpening('<think>\nweighing\n</think>\n\nYes.'), 'Yes.');
  });

  it('says a stop with how much came, and an empty answer as such', () => {
    assert.equal(runAnnouncement('m', 'stopped', 'abc'), 'm stopped, 3 characters of an answer.');
    assert.equal(runAnnouncement('m', 'done', ' \n'), 'm answered with nothing.');
    const code = '```\ncode only\n```';
    assert.equal(runAnnouncement('m', 'done', code), `m answered, ${code.length} characters.`);
  });
});
