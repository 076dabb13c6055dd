// Text from the service or a file, once through untrustedText, holds no link, autolink, HTML tag or icon on any
// surface VS Code renders it on. Each payload is checked the way each surface reads text:
// - notifications: VS Code's own link grammar (src/vs/base/common/linkedText.ts, copied below);
// - hovers and anything else that renders markdown: markdown-it with HTML on (CommonMark, as VS Code's renderer);
// - quick picks, tree labels, the status bar: the `$(icon)` syntax.
import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { markdownLiteral, untrustedText } from '../../src/util/untrustedText';
import { untrustedMarkdown, UntrustedMarkdown } from '../../src/util/untrustedMarkdown';

/** VS Code 1.100's notification link grammar (linkedText.ts): `[label](https://…|command:…|file:…)`. */
const VSCODE_NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
const markdown = new MarkdownIt({ html: true, linkify: false });
// markdown-it refuses file: and javascript: targets by itself; a hover renderer may not, so accept every target here.
markdown.validateLink = () => true;

const PAYLOADS = [
  '[a](command:hostedReasoning.configureBaseUrl?%5B%22https%3A%2F%2Fevil%22%5D)',
  '[a](command:x)',
  '[a](file:///etc/passwd)',
  '[a](https://evil.example/phish "title")',
  "[a](command:x 'title')",
  '[a]( command:x )',
  '[a](<command:x>)',
  '![i](https://tracker.example/pixel.png)',
  '<command:x>',
  '<file:///etc/passwd>',
  '<https://evil.example>',
  '[a][ref]\n\n[ref]: command:x',
  '[ref]: command:x\n\n[ref]',
  '[a]\n(command:x)',
  '&#91;a&#93;(command:x)',
  '&lbrack;a&rbrack;&lpar;command:x&rpar;',
  '%5Ba%5D(command:x)',
  '\\[a\\](command:x)',
  '[[a]](command:x)',
  '[a\u200b](command:x)',
  '[a]\u200b(command:x)',
  '<img src=x onerror="alert(1)">',
  '<a href="command:x">a</a>',
  '<!-- c --><script>alert(1)</script>',
  '$(loading~spin) $(key)',
];

/** `chatAnswer`: Chat shows an answer with theme icons off, and an https link whose text is its own address is allowed. */
function assertInert(text: string, context: string, chatAnswer = false): void {
  const html = chatAnswer ? markdown.render(text).replace(/<a href="(https:\/\/[^"]+)">\1<\/a>/g, '') : markdown.render(text);
  if (!chatAnswer) assert.equal(text.match(VSCODE_NOTIFICATION_LINK), null, `a notification would show a link (${context}): ${text}`);
  assert.ok(!/<a\b|<img\b|<script\b|<!--/i.test(html), `markdown renders a link, image or HTML (${context}): ${html}`);
  if (!chatAnswer) assert.ok(!text.includes('$('), `an icon would be rendered (${context}): ${text}`);
  assert.ok(!/\p{Cf}/u.test(text), `an invisible format character is left (${context})`);
}

describe('untrustedText', () => {
  for (const payload of PAYLOADS) {
    it(`makes ${JSON.stringify(payload)} inert on every surface, alone and inside a message`, () => {
      for (const multiline of [false, true]) {
        assertInert(untrustedText(payload, { multiline }), `alone, multiline ${multiline}`);
        assertInert(untrustedText(`The service said: ${payload} (status 402)`, { multiline }), `in a message, multiline ${multiline}`);
        assertInert(untrustedText(`${payload}${payload}`, { multiline }), `twice, multiline ${multiline}`);
      }
    });
  }

  it('the payloads are live without it (the checks above can fail)', () => {
    const live = PAYLOADS.filter((p) => {
      try {
        assertInert(p, 'raw');
        return false;
      } catch {
        return true;
      }
    });
    // Encoded forms, and a link split by a line break, are inert to begin with (they check that nothing decodes or
    // joins them into a live one); every other payload is a real link, autolink, tag or icon.
    assert.deepEqual(
      PAYLOADS.filter((p) => !live.includes(p)),
      ['[a]\n(command:x)', '&#91;a&#93;(command:x)', '&lbrack;a&rbrack;&lpar;command:x&rpar;', '%5Ba%5D(command:x)'],
    );
  });

  it('leaves ordinary text as it was', () => {
    for (const text of [
      'Model llama-3-8b-ft is ready.',
      'header.x-api-key: invalid key',
      'Evaluating m on demo-qa failed: dataset "x" not found (404)',
      'a < b and c > d; 5 $ to pay; [draft] notes (see page 2)',
      'https://status.example.com/incidents/42',
      'Schön: 日本語 — ok',
    ]) {
      assert.equal(untrustedText(text), text);
    }
  });

  it('removes bidi controls and zero-width characters, and puts a message on one line', () => {
    assert.equal(untrustedText('model\u202Efdp.exe'), 'modelfdp.exe');
    assert.equal(untrustedText('a\u200b\u2066b\u2069'), 'ab');
    assert.equal(untrustedText(' a  b\u00a0c '), 'a b c');
    assert.equal(untrustedText('line one\r\nline two\u2028three\u0007four\tfive'), 'line one line two three four five');
    assert.equal(untrustedText('one\n\n\n\ntwo\r\nthree\u0000four', { multiline: true }), 'one\n\ntwo\nthree four');
  });

  it('bounds the length without splitting a character', () => {
    assert.equal(untrustedText('x'.repeat(20), { maxChars: 10 }), `${'x'.repeat(9)}…`);
    const cut = untrustedText(`${'x'.repeat(8)}😀😀`, { maxChars: 10 });
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut), `a lone surrogate is left: ${JSON.stringify(cut)}`);
    assert.equal(untrustedText('short', { maxChars: 10 }), 'short');
  });

  it('bounds a path in its middle, keeping the file’s name whole, its start and its end unsplit', () => {
    assert.equal(untrustedText('aaaa/bbbb/cccc/dddd/name.pdf', { maxChars: 20, path: true }), 'aaaa/b…dddd/name.pdf');
    assert.equal(untrustedText('a\\bbbbbbbbbbbbbbbb\\name.pdf', { maxChars: 14, path: true }), 'a\\b…b\\name.pdf');
    // A name longer than the bound alone: its start and its end (the extension).
    assert.equal(untrustedText(`docs/${'n'.repeat(30)}.pdf`, { maxChars: 12, path: true }), 'docs/n…n.pdf');
    assert.equal(untrustedText(`${'n'.repeat(30)}.pdf`, { maxChars: 11, path: true }), 'nnnnn…n.pdf');
    assert.equal(untrustedText('a/b/short.pdf', { maxChars: 20, path: true }), 'a/b/short.pdf');
    const cut = untrustedText(`${'😀'.repeat(12)}/${'😀'.repeat(12)}/x.pdf`, { maxChars: 15, path: true });
    assert.ok(
      !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(cut),
      `half a character: ${JSON.stringify(cut)}`,
    );
    assert.ok(cut.endsWith('/x.pdf') && cut.length <= 15, cut);
    // The passes run before the cut: no link forms across it.
    assertInert(untrustedText(`[x${'/y'.repeat(50)}](command:z)/name.pdf`, { maxChars: 40, path: true }), 'plain');
  });
});

/** `text` fed to an UntrustedMarkdown in pieces of `size` characters, as a stream delivers it. */
function streamed(text: string, size: number): string {
  const m = new UntrustedMarkdown();
  let out = '';
  for (let at = 0; at < text.length; at += size) out += m.push(text.slice(at, at + size));
  return out + m.end();
}

describe("untrustedMarkdown (a model's answer shown as markdown in Chat)", () => {
  for (const payload of PAYLOADS) {
    it(`makes ${JSON.stringify(payload)} inert, whole and streamed in pieces`, () => {
      const text = `Answer: ${payload}\n\n- item ${payload}\n`;
      assertInert(untrustedMarkdown(text), 'whole', true);
      for (const size of [1, 2, 5]) assertInert(streamed(text, size), `in pieces of ${size}`, true);
    });
  }
});

describe('markdownLiteral (a name inside markdown)', () => {
  for (const payload of PAYLOADS) {
    it(`shows ${JSON.stringify(payload)} as plain characters`, () => assertInert(markdownLiteral(payload), 'literal'));
  }

  it('renders as exactly the name, with no emphasis or code', () => {
    for (const name of ['ft:oss-reasoner-8b:my_model_v2:1a2b', '*bold* `code` #1', 'a_b_c']) {
      assert.equal(markdown.renderInline(markdownLiteral(name)), name.replace(/&/g, '&amp;'));
    }
  });
});
