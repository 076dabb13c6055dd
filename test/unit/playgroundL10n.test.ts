// The playground page's translations: the bundle the host writes into the page, read back by the page, and l10n.t
// translating through it (English, with its arguments, for everything the bundle lacks).
import { strict as assert } from 'node:assert';
import { l10n } from '../../src/l10n';
import { webviewHtml } from '../../src/util/webviewHtml';
import { readBundle, useBundle } from '../../src/features/playground/page/pageL10n';

describe('playground page translations', () => {
  afterEach(() => useBundle(undefined));

  it('translates through the bundle it is given', () => {
    useBundle(readBundle(JSON.stringify({ Run: 'Ausführen', 'first token {0}': 'erstes Token {0}' })));
    assert.equal(l10n.t('Run'), 'Ausführen');
    assert.equal(l10n.t('first token {0}', '1.20 s'), 'erstes Token 1.20 s');
  });

  it('falls back to English, with its arguments formatted', () => {
    useBundle(readBundle(JSON.stringify({ Run: 'Ausführen' })));
    assert.equal(
      l10n.t('Temperature must be between {0} and {1}; {2} is outside.', 0, 2, '2.5'),
      'Temperature must be between 0 and 2; 2.5 is outside.',
    );
    useBundle(undefined);
    assert.equal(l10n.t('Run'), 'Run');
    assert.equal(l10n.t('{0} chars', '1,234'), '1,234 chars');
  });

  it('takes only an object of strings', () => {
    for (const bad of [undefined, null, '', 'not json', '[]', '["Run"]', '"Run"', '42', 'null', '{}', '{"Run": 1}']) {
      assert.equal(readBundle(bad), undefined, String(bad));
    }
    assert.deepEqual([...(readBundle('{"Run": "Ausführen", "Stop": {"x": 1}, "Done.": null}') ?? [])], [['Run', 'Ausführen']]);
    useBundle(readBundle('{"Run": "Ausführen"}'));
    // A message named after an object's own properties is not found on its prototype.
    assert.equal(l10n.t('constructor'), 'constructor');
    assert.equal(l10n.t('__proto__'), '__proto__');
  });

  it('reaches the page: the host writes the bundle into the root element, escaped, and the language into <html lang>', () => {
    const input = {
      cspSource: 'https://x',
      nonce: 'n',
      scriptUri: 'https://x/p.js',
      styleUris: [],
      title: 'Playground',
      root: { tag: 'div', testId: 'playground' },
    } as const;
    assert.match(webviewHtml(input), /<html lang="en">/);
    assert.doesNotMatch(webviewHtml(input), /data-l10n/);
    const bundle = { Run: 'Ausführen', '"><script>alert(1)</script>': '<b>&amp;</b>' };
    const html = webviewHtml({ ...input, lang: 'de', l10nBundle: bundle });
    assert.match(html, /<html lang="de">/);
    const attribute = /<div id="app" data-testid="playground" data-l10n="([^"]*)"><\/div>/.exec(html)?.[1];
    assert.ok(attribute, html);
    assert.doesNotMatch(attribute, /[<>]/);
    const decoded = attribute
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    assert.deepEqual(Object.fromEntries(readBundle(decoded) ?? []), bundle);
  });
});
