// Incremental rendering of a streamed answer (src/features/playground/page/markdown.ts, IncrementalMarkdown): after every piece of
// text, the finished blocks rendered so far plus the current tail must be exactly what a full render of the text so
// far gives, for every split point of tricky markdown (fences, lists, tables, quotes, reference definitions, CRLF).
import { strict as assert } from 'node:assert';
import { createMarkdownRenderer, IncrementalMarkdown } from '../../src/features/playground/page/markdown';

const md = createMarkdownRenderer();

const DOCS: Record<string, string> = {
  paragraphs: 'First paragraph with *emphasis* and `code`.\n\nSecond one,\nstill second.\n\n\nThird after two blank lines.\n',
  headings: '# Title\n\nText\n\nSetext\n===\n\nMore\n---\n\n---\n\nafter a rule\n',
  fence: 'Intro\n\n```ts\nconst a = 1;\n\n\nconst b = 2;\n```\n\nAfter the fence\n\n~~~\ntilde\n\n```\nstill tilde\n~~~\n\nend\n',
  fenceLongCloser: '````\n```\n\nnot closed by three\n```\n\nstill code\n`````\n\nout\n',
  unclosedFence: 'Text\n\n```\ncode\n\nmore code\n\nand more',
  fenceInList: '- item\n  ```\n  code\n\n  more\n  ```\n\n- next\n\nafter\n\n```\nreal fence\n\nx\n```\n\ny\n',
  phantomFence: '- a\n  ```\n  code\nb\n\n```\ncode\n\nx\n```\n\nz\n',
  fenceInQuote: '> ```\n> code\n\nb\n\n> quote\ncontinued lazily\n\n> second\n\nend\n',
  tightList: '- one\n- two\n- three\n\nparagraph\n',
  looseList: '- one\n\n- two\n\n  continued\n\n- three\n\nparagraph\n\n* other\n+ marker\n',
  orderedList: '1. one\n2. two\n\n3. three\n\n10) ten\n11) eleven\n\ndone\n\n7. seven\n\n8. eight\n',
  nestedList: '- a\n  - b\n\n    deep\n  - c\n\n- d\n\ntext\n-\n\n-\nempty items\n',
  table: '| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 | 4 |\n\nAfter table\n\nx | y\n--|--\n5 | 6\n\nend\n',
  quotes: '> a\n> b\n\n> c\n\n>> nested\n\nplain\n',
  indentedCode: 'Para\n\n    code\n\n    still code\n\n\n    more\nnot code\n\nend\n',
  referenceAfterUse: 'See [the docs][d] and [x].\n\nMore text\n\n[d]: https://example.com/docs\n\nTail [d]\n',
  referenceFirst: '[x]: https://example.com\n\nUse [x] here\n\nand again [x]\n',
  linkify: 'Visit https://example.com/a_b and www.example.org\n\nmailto:someone@example.com\n\n[bad](javascript:alert(1))\n',
  html: '<div>\n\n<script>alert(1)</script>\n\n</div>\n\ntext <b>bold</b>\n',
  crlf: 'line one\r\n\r\nline two\r\n\r\n```\r\ncode\r\n\r\n```\r\n\r\nend\r\n',
  loneCr: 'x\r```\ncode\n\ny\n\n```\n\nz\n',
  emphasisAcross: '*start\n\nend*\n\n**bold\ncontinued**\n',
  numberedTokens: Array.from({ length: 60 }, (_, i) => `${i % 20 === 0 && i > 0 ? '\n\n' : ' '}w${String(i).padStart(6, '0')}`).join(''),
};

/** Feeds `text` in pieces ending at `ends`, checking the accumulated HTML after each; returns the finished HTML. */
function stream(text: string, ends: number[]): { finished: string; resets: number } {
  const inc = new IncrementalMarkdown(md);
  let finished = '';
  let resets = 0;
  for (const end of ends) {
    const prefix = text.slice(0, end);
    const update = inc.update(prefix);
    if (update.reset) {
      finished = '';
      resets++;
    }
    finished += update.finished;
    assert.equal(finished + update.tail, md.render(prefix), `after ${end} of ${text.length} characters: ${JSON.stringify(prefix)}`);
  }
  return { finished, resets };
}

/** A deterministic generator, so a failure reproduces. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

describe('playground markdown: incremental rendering equals a full render', () => {
  for (const [name, text] of Object.entries(DOCS)) {
    it(`${name}: one character at a time`, () => {
      stream(
        text,
        Array.from({ length: text.length }, (_, i) => i + 1),
      );
    });

    it(`${name}: random pieces (several seeds) and all at once`, () => {
      for (let seed = 1; seed <= 5; seed++) {
        const next = random(seed);
        const ends: number[] = [];
        for (let at = 0; at < text.length;) {
          at = Math.min(text.length, at + 1 + Math.floor(next() * 12));
          ends.push(at);
        }
        stream(text, ends);
      }
      stream(text, [text.length]);
    });
  }

  it('finished blocks are really kept: only the open tail is rendered again', () => {
    const text = DOCS.paragraphs as string;
    const { finished, resets } = stream(
      text,
      Array.from({ length: text.length }, (_, i) => i + 1),
    );
    assert.equal(resets, 0);
    assert.equal(finished, md.render('First paragraph with *emphasis* and `code`.\n\nSecond one,\nstill second.\n\n\n'));
    const inc = new IncrementalMarkdown(md);
    inc.update(text.slice(0, 60));
    const update = inc.update(text);
    assert.ok(!update.reset);
    assert.equal(update.tail, md.render('Third after two blank lines.\n'));
  });

  it('numbered tokens in paragraphs: the tail is the last paragraph', () => {
    const text = DOCS.numberedTokens as string;
    const inc = new IncrementalMarkdown(md);
    const update = inc.update(text);
    assert.equal(update.tail, md.render(text.slice(text.lastIndexOf('\n\n') + 2)));
  });

  it('a text that is not a continuation resets', () => {
    const inc = new IncrementalMarkdown(md);
    inc.update('one\n\ntwo\n\nthree');
    const update = inc.update('other\n\ntext');
    assert.equal(update.reset, true);
    assert.equal(update.finished + update.tail, md.render('other\n\ntext'));
  });

  it('a reference definition arriving after its use re-renders the earlier blocks', () => {
    const before = 'Use [x] here.\n\nMore\n\nmore\n\n';
    const inc = new IncrementalMarkdown(md);
    const first = inc.update(before);
    assert.ok(first.finished.includes('[x]'), 'no link yet');
    const after = `${before}[x]: https://example.com\n\nend`;
    const update = inc.update(after);
    assert.equal(update.reset, true);
    assert.match(update.tail, /<a href="https:\/\/example.com"/);
    assert.equal(update.tail, md.render(after));
  });

  it('cuts only where a top-level block follows a blank line and its first line cannot continue a list', () => {
    assert.equal(md.stableEnd('a\n\nb\n', 0), 3);
    assert.equal(md.stableEnd('a\n\nb', 0), 3, 'a line starting with a letter cannot continue a list');
    assert.equal(md.stableEnd('a\n\n-', 0), 0, 'may still become a list item');
    assert.equal(md.stableEnd('a\n\n12', 0), 0, 'may still become an ordered list item');
    assert.equal(md.stableEnd('a\n\n123456789012', 0), 3, 'longer than any list marker');
    assert.equal(md.stableEnd('- a\n\n- b\n', 0), 0, 'a list item continues the list');
    assert.equal(md.stableEnd('- a\n\n  b\n', 0), 0, 'an indented line continues the item');
    assert.equal(md.stableEnd('```\na\n\nb\n', 0), 0, 'inside a fence');
    assert.equal(md.stableEnd('# a\nb\n', 0), 0, 'only after a blank line');
    assert.equal(md.stableEnd('a\n\n[b]: https://example.com\n\nc\n', 0), 0, 'a reference definition in sight');
    assert.equal(md.stableEnd('a\r\n\r\nb\r\n', 0), 0, 'CR characters');
    assert.equal(md.stableEnd('a\n\nb\n\nc\n', 3), 6, 'from a previous cut');
  });
});
