// A model's answer, once through UntrustedMarkdown, is markdown in which a CommonMark parser (markdown-it, with HTML
// and bare-URL linking on, as a renderer may have them) finds no image, no HTML and no link whose visible text is not
// its own target, whole or streamed in any pieces; code stays code. The five ways past the earlier, line-based
// neutraliser found in the security review (issue 26, finding 2) come first; then properties over generated answers
// (fast-check, seeded: HR_PROPERTY_SEED replays a failure).
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { checkProperty, propertySeed } from './propertyCheck';
import MarkdownIt from 'markdown-it';
import { untrustedMarkdown, UntrustedMarkdown } from '../../src/util/untrustedMarkdown';

const markdown = new MarkdownIt({ html: true, linkify: true });
// markdown-it refuses file: and javascript: targets by itself; a renderer may not, so every target counts here.
markdown.validateLink = () => true;

type Token = MarkdownIt.Token;

/** What a renderer would make act in `text`: images, HTML, links that show other text than their target, or go elsewhere than the web. */
function dangers(text: string): string[] {
  const found: string[] = [];
  const walk = (tokens: readonly Token[]) => {
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i] as Token;
      if (t.type === 'image') found.push(`image ${t.attrGet('src')}`);
      if (t.type === 'html_inline' || t.type === 'html_block') found.push(`html ${t.content}`);
      if (t.type === 'link_open') {
        const href = String(t.attrGet('href') ?? '');
        let label = '';
        for (let j = i + 1; j < tokens.length && tokens[j]?.type !== 'link_close'; j++) label += tokens[j]?.content ?? '';
        const shown = [href, markdown.normalizeLinkText(href), href.replace(/^(https?:\/\/|mailto:)/i, '')];
        if (!shown.includes(label) && !shown.includes(markdown.normalizeLinkText(label))) found.push(`link "${label}" -> ${href}`);
        if (!/^(https?:|mailto:)/i.test(href)) found.push(`link to ${href}`);
      }
      if (t.children) walk(t.children);
    }
  };
  walk(markdown.parse(text, {}));
  return found;
}

function assertInert(out: string, context: string): void {
  assert.deepEqual(dangers(out), [], `${context}: ${JSON.stringify(out)}`);
}

/** `text` fed to an UntrustedMarkdown in pieces of `size` characters, as a stream delivers it. */
function streamed(text: string, size: number): string {
  const m = new UntrustedMarkdown();
  let out = '';
  for (let at = 0; at < text.length; at += size) out += m.push(text.slice(at, at + size));
  return out + m.end();
}

const IMG = 'https://evil.example/p.png?u=x';
/** The five ways past the line-based neutraliser (issue 26, finding 2). */
const BYPASSES: [string, string][] = [
  ['an escaped backtick before a link', '\\`[update your key](https://evil.example/login)\\`'],
  ['an escaped backtick before an image', `\\\`![](${IMG})\``],
  ['a code span over two lines, then an image', `\`a\nb\` ![](${IMG}) \`c\``],
  ['```js` (not a fence in CommonMark)', `\`\`\`js\`\n![](${IMG})\n\`\`\`\``],
  ['a fence opened on a list-marker line, closed indented', `- \`\`\`\n  x\n  \`\`\`\n\n![](${IMG})\n\`\`\``],
];

describe('UntrustedMarkdown: the ways past a line-based neutraliser (issue 26, finding 2)', () => {
  for (const [name, payload] of BYPASSES) {
    it(`${name}: no link, image or HTML reaches the answer, whole or streamed`, () => {
      assert.notDeepEqual(dangers(payload), [], 'the payload is live without the neutraliser');
      assertInert(untrustedMarkdown(payload), 'whole');
      for (const size of [1, 3, 7]) assertInert(streamed(payload, size), `in pieces of ${size}`);
    });
  }
});

describe('UntrustedMarkdown: what an answer may show', () => {
  it('a link shows its label and its real target; an https target as a link to itself, any other as code', () => {
    assert.equal(untrustedMarkdown('[update your key](https://evil.example/login)'), 'update your key (<https://evil.example/login>)\n');
    const file = untrustedMarkdown('[open](file:///etc/passwd) [run](command:x?%5B1%5D) <vscode://a.b/c>');
    assert.equal(file, 'open (`file:///etc/passwd`) run (`command:x?%5B1%5D`) `vscode://a.b/c`\n');
  });

  it('a bare address with a scheme other than https is code (Chat links a bare http:// address itself); www. stays text', () => {
    const out = untrustedMarkdown('see http://evil.example/x and https://ok.example/y and www.example.com');
    assert.equal(out, 'see `http://evil.example/x` and <https://ok.example/y> and www.example.com\n');
  });

  it('an image is not loaded: it shows its description and address as text', () => {
    assert.equal(untrustedMarkdown(`![a pixel](${IMG})`), `\\[image: a pixel\\] (\`${IMG}\`)\n`);
    assert.equal(untrustedMarkdown(`![](${IMG})`), `\\[image\\] (\`${IMG}\`)\n`);
  });

  it('raw HTML shows as text', () => {
    const out = untrustedMarkdown('a <img src=x onerror=alert(1)> b\n\n<div>\n<b>x</b>\n</div>\n');
    assertInert(out, 'html');
    assert.equal(markdown.renderInline(out.split('\n')[0] ?? ''), 'a &lt;img src=x onerror=alert(1)&gt; b');
  });

  it('keeps what makes an answer readable: headings, emphasis, lists, quotes, tables, code as written', () => {
    const text = [
      '### Answer',
      '',
      'It depends on **caching**, _naïve_ ~~or not~~ ✅ (简体): see https://docs.example/cache.',
      '',
      '```ts',
      'if (a[0](b) < c) return `$(x)`; // [link](command:x) <b> ![i](https://x.example/i.png)',
      '    indented();',
      '```',
      '',
      '- one `[a](command:x)`',
      '  - two',
      '1. first',
      '',
      '> quoted',
      '',
      '| a | b |',
      '| - | -: |',
      '| `x|y` | 2 |',
    ].join('\n');
    const out = untrustedMarkdown(text);
    assertInert(out, 'readable');
    assert.equal(markdown.render(out), markdown.render(text));
    assert.equal(streamed(text, 3), out);
  });

  it('closes a code block the model left open, so nothing after it is swallowed as code', () => {
    const out = untrustedMarkdown('Thinking:\n```\n</details>');
    assert.equal(markdown.render(out), '<p>Thinking:</p>\n<pre><code>&lt;/details&gt;\n</code></pre>\n');
    assert.ok(out.endsWith('```\n'), out);
  });

  it('removes invisible format characters and control characters, even in code', () => {
    assert.equal(untrustedMarkdown('```\nlet a\u202e = 1\u0007\n```\nok\u200b'), '```\nlet a = 1\n```\n\nok\n');
  });

  it('a fence longer than its code: a run of backticks inside code cannot close it early', () => {
    const out = untrustedMarkdown('~~~\n```\n[a](command:x)\n~~~\n');
    assertInert(out, 'fence');
    assert.equal(markdown.render(out), markdown.render('~~~\n```\n[a](command:x)\n~~~\n'));
  });

  it('streams: a finished block is passed on before the answer ends, and an overlong open block is cut', () => {
    const m = new UntrustedMarkdown();
    assert.equal(m.push('First paragraph.\n'), '');
    assert.equal(m.push('\nSecond'), 'First paragraph.\n\n');
    // A paragraph without an end is passed on once it is longer than the bound, a line at a time.
    const long = `${'word '.repeat(1000)}\n`;
    let out = '';
    for (let i = 0; i < 10; i++) out += m.push(long);
    assert.ok(out.length > 20_000, `only ${out.length} characters passed on`);
    out += m.end();
    assertInert(out, 'long');
  });

  it('a fence cut because it is too long goes on as code', () => {
    const code = Array.from({ length: 2000 }, (_, i) => `line ${i} [a](command:x) ![i](${IMG})`).join('\n');
    const out = streamed(`\`\`\`py\n${code}\n\`\`\`\nafter`, 50);
    assertInert(out, 'long fence');
    const tokens = markdown.parse(out, {});
    const fenced = tokens
      .filter((t) => t.type === 'fence')
      .map((t) => t.content)
      .join('');
    assert.equal(fenced, `${code}\n`);
    assert.ok(tokens.every((t) => t.type !== 'fence' || t.info === 'py'));
  });
});

const SEED = propertySeed(20_261_126);
const RUNS = 400;

const check = <T>(name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => void): void =>
  checkProperty(name, arb, predicate, SEED, RUNS);

/** Pieces of markdown syntax, so generated answers are dense with the constructs that act or hide. */
const FRAGMENTS = [
  '[',
  ']',
  '(',
  ')',
  '!',
  '<',
  '>',
  '`',
  '``',
  '```',
  '~~~',
  '\\',
  '\n',
  '\n\n',
  ' ',
  '   ',
  '    ',
  '\t',
  '- ',
  '* ',
  '1. ',
  '> ',
  '# ',
  '*',
  '_',
  '~~',
  '|',
  '---',
  '===',
  ':',
  '"',
  "'",
  '&amp;',
  '&#91;',
  '&lt;',
  '%5B',
  'a',
  'word ',
  'https://e.example/x',
  'http://h.example',
  'www.w.example',
  'file:///etc/passwd',
  'command:x?%5B%5D',
  'vscode:a',
  'javascript:alert(1)',
  'mailto:m@e.example',
  'm@e.example',
  '<img src=x>',
  '<a href="command:x">',
  '<!--',
  '-->',
  '[a](command:x)',
  '![i](https://p.example/i.png)',
  '[r]: command:y',
  '[r]',
  '<https://auto.example>',
  '\u200b',
  '\r',
];
const answers = fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((parts) => parts.join(''));

describe('UntrustedMarkdown: properties over generated answers', () => {
  check('no output holds an image, HTML, or a link showing other text than its target', answers, (text) => {
    assertInert(untrustedMarkdown(text), 'whole');
  });

  check(
    'streamed in any pieces, the output is as safe',
    fc.tuple(answers, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 20 })),
    ([text, sizes]) => {
      const m = new UntrustedMarkdown();
      let out = '';
      let at = 0;
      for (let i = 0; at < text.length; i++) {
        const size = sizes[i % sizes.length] ?? 1;
        out += m.push(text.slice(at, at + size));
        at += size;
      }
      assertInert(out + m.end(), 'streamed');
    },
  );

  check(
    'code stays code: a fence of any content shows that content',
    fc.array(fc.constantFrom(...FRAGMENTS.filter((f) => !f.includes('\r') && f !== '\u200b')), { maxLength: 30 }),
    (parts) => {
      const code = parts.join('').replace(/\n/g, ' ');
      const out = untrustedMarkdown(`\`\`\`\`\`\`\`\`\`\`\n${code}\n\`\`\`\`\`\`\`\`\`\`\n`);
      const fence = markdown.parse(out, {}).find((t) => t.type === 'fence');
      assert.equal(fence?.content, `${code}\n`);
    },
  );
});
