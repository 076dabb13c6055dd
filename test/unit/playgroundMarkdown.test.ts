// The playground's markdown renderer against hostile model output: whatever the model writes, the HTML has no
// script, no event handler attribute, no javascript:/vbscript:/data: link, no iframe, no SVG, no image fetch.
import { strict as assert } from 'node:assert';
import { createMarkdownRenderer, isSafeLink } from '../../src/features/playground/page/markdown';

const md = createMarkdownRenderer();

/** The tags of an HTML string (escaped text like `&lt;img onerror=...&gt;` is text, not a tag). */
function tags(html: string): string[] {
  return html.match(/<[a-zA-Z][^>]*>/g) ?? [];
}

function assertInert(html: string, payload: string): void {
  const where = `for ${JSON.stringify(payload).slice(0, 120)}:\n${html}`;
  assert.doesNotMatch(html, /<script/i, `a script tag ${where}`);
  assert.doesNotMatch(html, /<iframe/i, `an iframe ${where}`);
  assert.doesNotMatch(html, /<svg/i, `an svg ${where}`);
  assert.doesNotMatch(html, /<(img|object|embed|style|link|meta|form|base|video|audio|math)\b/i, `a fetching or active tag ${where}`);
  for (const tag of tags(html)) {
    assert.doesNotMatch(tag, /\son\w+\s*=/i, `an event handler attribute in ${tag} ${where}`);
    assert.doesNotMatch(tag, /\sstyle\s*=/i, `a style attribute in ${tag} ${where}`);
    assert.doesNotMatch(tag, /(javascript|vbscript|data|file|command|vscode):/i, `a dangerous scheme in ${tag} ${where}`);
    const href = /\shref="([^"]*)"/.exec(tag)?.[1];
    if (href !== undefined) assert.match(href, /^(https?:\/\/|mailto:)/i, `a link that is not http(s)/mailto in ${tag} ${where}`);
    assert.doesNotMatch(tag, /\ssrc\s*=/i, `a src attribute in ${tag} ${where}`);
  }
}

const HOSTILE = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  'before <img src=x onerror=alert(1)> after',
  '<img src="x" onerror="alert(1)">',
  '![alt text](https://evil.example/pixel.png "title")',
  '![x](javascript:alert(1))',
  '[click](javascript:alert(1))',
  '[click](JaVaScRiPt:alert(1))',
  '[click]( javascript:alert(1) )',
  '[click](java\tscript:alert(1))',
  '[click](&#106;avascript:alert(1))',
  '[click](&#x6A;avascript&#x3A;alert(1))',
  '[click](vbscript:msgbox(1))',
  '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[click](file:///etc/passwd)',
  '[click](command:workbench.action.terminal.new)',
  '[click](vscode://some.extension/path)',
  '<javascript:alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[ref][1]\n\n[1]: javascript:alert(1)',
  '<iframe src="https://evil.example"></iframe>',
  '<svg onload=alert(1)><circle r=1 /></svg>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '<<script>script>alert(1)<</script>/script>',
  '<p onclick="alert(1)">click</p>',
  '"><script>alert(1)</script>',
  '```\n<script>alert(1)</script>\n```',
  '````md\n```html\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n```\n````',
  '```js" onmouseover="alert(1)\ncode\n```',
  '```<script>\ncode\n```',
  '    <script>alert(1)</script>',
  '`<img src=x onerror=alert(1)>`',
  '| a | b |\n|:--|--:|\n| <script>x</script> | [x](javascript:1) |',
  '<!-- comment --><script>alert(1)</script>',
  '<details open ontoggle=alert(1)>',
  '[a](https://example.com" onclick="alert(1))',
  'https://example.com/"onmouseover="alert(1)',
];

describe('playground markdown rendering', () => {
  for (const payload of HOSTILE) {
    it(`keeps inert: ${JSON.stringify(payload).slice(0, 70)}`, () => {
      assertInert(md.render(payload), payload);
    });
  }

  it('keeps all of them inert in one document, and in every prefix (as a stream renders it)', () => {
    const doc = HOSTILE.join('\n\n');
    assertInert(md.render(doc), 'all');
    for (let i = 1; i <= doc.length; i += 7) assertInert(md.render(doc.slice(0, i)), `prefix ${i}`);
  });

  it('shows raw HTML as text', () => {
    const html = md.render('<b>bold?</b> <script>alert(1)</script>');
    assert.match(html, /&lt;b&gt;bold\?&lt;\/b&gt;/);
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
  });

  it('renders entities as text, not markup', () => {
    assert.match(md.render('&lt;script&gt;'), /&lt;script&gt;/);
  });

  it('renders https, http and mailto links, and linkifies bare URLs', () => {
    assert.match(
      md.render('[docs](https://example.com/a?b=1&c=2)'),
      /<a href="https:\/\/example\.com\/a\?b=1&amp;c=2" rel="noopener noreferrer">docs<\/a>/,
    );
    assert.match(md.render('[x](http://example.com)'), /<a href="http:\/\/example\.com"/);
    assert.match(md.render('[mail](mailto:a@example.com)'), /<a href="mailto:a@example\.com"/);
    assert.match(md.render('see https://example.com/page now'), /<a href="https:\/\/example\.com\/page"/);
  });

  it('leaves refused links as plain text', () => {
    const html = md.render('[click](javascript:alert(1))');
    assert.doesNotMatch(html, /<a /);
    assert.match(html, /\[click\]\(javascript:alert\(1\)\)/);
  });

  it('shows an image as its alt text without loading it', () => {
    const html = md.render('![a *diagram*](https://example.com/d.png)');
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /<span class="md-image"[^>]*>a diagram<\/span>/);
  });

  it('gives each code block a Copy button and escapes its content', () => {
    const html = md.render('```ts\nconst a = 1 < 2 && "x";\n```\n\n    indented <b>\n');
    assert.equal(html.match(/data-testid="copy-code"/g)?.length, 2);
    assert.match(html, /<code class="language-ts">const a = 1 &lt; 2 &amp;&amp; &quot;x&quot;;\n<\/code>/);
    assert.match(html, /indented &lt;b&gt;/);
  });

  it('keeps a language label to safe characters', () => {
    const html = md.render('```c++" x=<y>\nint a;\n```');
    assert.match(html, /class="language-c\+\+"/);
  });

  it('turns table alignment into classes (the page forbids style attributes)', () => {
    const html = md.render('| l | c | r |\n|:--|:-:|--:|\n| 1 | 2 | 3 |');
    assert.doesNotMatch(html, /style=/);
    assert.match(html, /<th class="align-left">l<\/th>/);
    assert.match(html, /<td class="align-center">2<\/td>/);
    assert.match(html, /<td class="align-right">3<\/td>/);
  });

  it('renders an unfinished fence (mid-stream) as code to the end', () => {
    const html = md.render('Text\n```py\nprint(1)\n<script>');
    assert.match(html, /<code class="language-py">print\(1\)\n&lt;script&gt;/);
  });

  it('allows only http(s) and mailto link targets', () => {
    for (const ok of ['https://a.example', 'HTTP://a.example', 'mailto:x@y.z']) assert.equal(isSafeLink(ok), true, ok);
    for (const bad of [
      'javascript:x',
      'data:x',
      'vbscript:x',
      '//evil.example',
      '/relative',
      '#anchor',
      'https:/x',
      'ftp://x',
      'file:///x',
      ' https://x',
    ]) {
      assert.equal(isSafeLink(bad), false, bad);
    }
  });
});
