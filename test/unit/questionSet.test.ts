// A person's question sets: each format read with its columns and line numbers, and each kind of bad input refused
// with words that name the line.
import { strict as assert } from 'node:assert';
import { answerMatches, normalizeAnswer } from '../../src/features/evaluate/compare/answerMatch';
import {
  checkQuestionSetSize,
  MAX_QUESTION_SET_BYTES,
  MAX_QUESTIONS,
  parseQuestionSet,
  questionSetFormat,
  QuestionSetError,
  type QuestionSetFormat,
} from '../../src/features/evaluate/compare/questionSet';

function refusal(text: string, format: QuestionSetFormat): string {
  try {
    parseQuestionSet(text, format);
  } catch (e) {
    assert.ok(e instanceof QuestionSetError, `a QuestionSetError, not ${String(e)}`);
    return e.message;
  }
  assert.fail('the set was accepted');
}

describe('question sets: reading each format', () => {
  it('reads JSON Lines with question/expected, skipping blank lines, numbering by file line', () => {
    const set = parseQuestionSet(
      '\uFEFF{"question":"2+2?","expected":4}\n\n{"question":" Capital of France? ","expected":"Paris"}\n',
      'jsonl',
    );
    assert.deepEqual(set, {
      format: 'jsonl',
      questionColumn: 'question',
      expectedColumn: 'expected',
      items: [
        { question: '2+2?', expected: '4', line: 1 },
        { question: 'Capital of France?', expected: 'Paris', line: 3 },
      ],
    });
  });

  it('takes prompt/answer or prompt/reference when question/expected are absent, and a set without expected', () => {
    assert.deepEqual(
      parseQuestionSet('{"Prompt":"a","answer":"b"}', 'jsonl').items.map((i) => [i.question, i.expected]),
      [['a', 'b']],
    );
    const ref = parseQuestionSet('{"prompt":"a","reference":"r"}', 'jsonl');
    assert.equal(ref.questionColumn, 'prompt');
    assert.equal(ref.expectedColumn, 'reference');
    const none = parseQuestionSet('{"question":"a"}\n{"question":"b","extra":1}', 'jsonl');
    assert.equal(none.expectedColumn, undefined);
    assert.deepEqual(none.items, [
      { question: 'a', line: 1 },
      { question: 'b', line: 2 },
    ]);
  });

  it('reads CSV with quotes, commas and line breaks inside cells, CRLF endings and a BOM, numbering each row by its first line', () => {
    const csv = '\uFEFFid,Question,Expected\r\n1,"Say ""hi"", then\r\nwait",hi\r\n\r\n2,plain,"1,000"\r\n';
    const set = parseQuestionSet(csv, 'csv');
    assert.equal(set.questionColumn, 'Question');
    assert.equal(set.expectedColumn, 'Expected');
    assert.deepEqual(set.items, [
      { question: 'Say "hi", then\nwait', expected: 'hi', line: 2 },
      { question: 'plain', expected: '1,000', line: 5 },
    ]);
  });

  it('reads the first Markdown table with a question column, by its source lines', () => {
    const md = [
      '# My questions',
      '',
      '| name | value |',
      '|---|---|',
      '| x | 1 |',
      '',
      '| Question | Answer |',
      '|---|---|',
      '| What is `2+2`? | 4 |',
      '| Who wrote *Hamlet*? | Shakespeare |',
    ].join('\n');
    const set = parseQuestionSet(md, 'md');
    assert.equal(set.questionColumn, 'Question');
    assert.equal(set.expectedColumn, 'Answer');
    assert.deepEqual(set.items, [
      { question: 'What is `2+2`?', expected: '4', line: 9 },
      { question: 'Who wrote *Hamlet*?', expected: 'Shakespeare', line: 10 },
    ]);
  });

  it('knows the formats by the file name', () => {
    assert.equal(questionSetFormat('a/b/Set.JSONL'), 'jsonl');
    assert.equal(questionSetFormat('x.csv'), 'csv');
    assert.equal(questionSetFormat('x.md'), 'md');
    assert.equal(questionSetFormat('x.json'), undefined);
  });
});

describe('question sets: bad input, in words with the line', () => {
  it('a malformed JSON line, a line that is not an object, a line without the first line’s question', () => {
    assert.match(refusal('{"question":"a"}\n{"question": oops}\n', 'jsonl'), /^Line 2 is not valid JSON/);
    assert.match(refusal('{"question":"a"}\n\n["a"]\n', 'jsonl'), /^Line 3 should be one JSON object/);
    assert.match(refusal('{"question":"a"}\n{"prompt":"b"}\n', 'jsonl'), /^Line 2 has no "question"/);
    assert.match(refusal('{"question":{"x":1}}', 'jsonl'), /^Line 1: "question" should be text/);
    assert.match(refusal('{"question":"  "}', 'jsonl'), /^Line 1: the question is empty/);
  });

  it('a malformed CSV row, with the line csv-parse found it on', () => {
    assert.match(refusal('question,expected\na,b\nc,d,e\n', 'csv'), /^Line 3 is not valid CSV \(Invalid Record Length/);
    assert.match(refusal('question,expected\na,b\n"c,d\n', 'csv'), /^Line 3 is not valid CSV \(Quote Not Closed/);
    assert.match(refusal('question,expected\na,b\n,d\n', 'csv'), /^Line 3: the question is empty/);
  });

  it('no question column: says which names it takes and which it found', () => {
    assert.match(
      refusal('{"q":"a","a":"b"}', 'jsonl'),
      /^Line 1 has no question column: name one "question" or "prompt" \(it has: "q", "a"\)/,
    );
    assert.match(refusal('query,reply\na,b\n', 'csv'), /^The header row has no question column.*"query", "reply"/);
    assert.match(refusal('| q | a |\n|---|---|\n| x | y |\n', 'md'), /^The table on line 1 has no question column/);
    assert.match(refusal('Just prose, no table.\n', 'md'), /^The file has no table/);
  });

  it('an empty set, whatever the format', () => {
    for (const [text, format] of [
      ['', 'jsonl'],
      ['\n \n', 'jsonl'],
      ['question,expected\n', 'csv'],
      ['', 'csv'],
      ['| question |\n|---|\n', 'md'],
    ] as const) {
      assert.equal(refusal(text, format), 'The file holds no questions.', JSON.stringify(text));
    }
  });

  it('a set past the bounds: by size before reading, by count before anything is sent', () => {
    assert.doesNotThrow(() => checkQuestionSetSize(MAX_QUESTION_SET_BYTES));
    assert.throws(() => checkQuestionSetSize(MAX_QUESTION_SET_BYTES + 1), /may be at most 50 MB/);
    const lines = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ question: `q${i}` })).join('\n');
    assert.equal(parseQuestionSet(lines(MAX_QUESTIONS), 'jsonl').items.length, MAX_QUESTIONS);
    assert.match(refusal(lines(MAX_QUESTIONS + 1), 'jsonl'), /more than 10000 questions/);
    assert.match(refusal(`question\n${'q\n'.repeat(MAX_QUESTIONS + 1)}`, 'csv'), /more than 10000 questions/);
  });
});

describe('answer matching', () => {
  it('exact: the texts trimmed, nothing else', () => {
    assert.ok(answerMatches(' Paris\n', 'Paris', 'exact'));
    assert.ok(!answerMatches('paris', 'Paris', 'exact'));
  });

  it('normalized: case, spacing, punctuation and the way a number is written', () => {
    assert.equal(normalizeAnswer('  The Answer:  1,000.50!  '), 'the answer 1000.5');
    assert.ok(answerMatches('PARIS.', 'paris', 'normalized'));
    assert.ok(answerMatches('1,000', '1000', 'normalized'));
    assert.ok(answerMatches('7.0', '7', 'normalized'));
    assert.ok(answerMatches('New   York', 'new-york', 'normalized'));
    assert.ok(answerMatches('Ｐａｒｉｓ', 'Paris', 'normalized'), 'full-width letters are the same letters');
  });

  it('normalized: still the whole answer, and a different number is a different answer', () => {
    assert.ok(!answerMatches('It is Paris', 'Paris', 'normalized'));
    assert.ok(!answerMatches('-7', '7', 'normalized'));
    assert.ok(!answerMatches('7.5', '75', 'normalized'));
    assert.ok(!answerMatches('', 'x', 'normalized'));
  });
});
