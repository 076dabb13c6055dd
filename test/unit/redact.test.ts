// Redaction masks the key in every form a server may echo it, URL credentials and signed-URL queries, and nothing
// else: a message without them reads exactly as the server wrote it.
import { strict as assert } from 'node:assert';
import { describeUrl, redact, registerSecret } from '../../src/api/redact';
import { seededRandom } from './seededRandom';

const KEY = 'hr-Key/With+Odd=Chars&ü-9f3a';
const FORMS: Record<string, string> = {
  raw: KEY,
  'URL-encoded': encodeURIComponent(KEY),
  base64: Buffer.from(KEY).toString('base64'),
  'base64 unpadded': Buffer.from(KEY).toString('base64').replace(/=+$/, ''),
  base64url: Buffer.from(KEY).toString('base64url'),
};

/** Words servers put in error texts, the header's name among them; no URL with a query or credentials. */
const WORDS = [
  'header.x-api-key:',
  'X-API-Key',
  'x-api-key=',
  'invalid',
  'key',
  'Bearer',
  'token:',
  '"detail":',
  '{',
  '}',
  '=',
  ':',
  '401',
  'Unauthorized',
  'https://api.example.com/v1/models',
  'ü',
  '日本',
  '—',
  '\n',
  '\t',
  'api_key',
  'secret',
  'hr-Key',
  'aHIt',
];

function message(random: () => number): string {
  const n = 1 + Math.floor(random() * 12);
  return Array.from({ length: n }, () => WORDS[Math.floor(random() * WORDS.length)]).join(random() < 0.5 ? ' ' : '');
}

describe('redaction', () => {
  before(() => registerSecret(KEY));

  it('leaves a message without the key, URL credentials or a URL query exactly as it was (200 generated messages)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const text = message(seededRandom(seed));
      assert.equal(redact(text), text, `seed ${seed}`);
    }
    assert.equal(redact('header.x-api-key: invalid key'), 'header.x-api-key: invalid key');
    assert.equal(redact('X-API-Key: missing'), 'X-API-Key: missing');
  });

  for (const [name, form] of Object.entries(FORMS)) {
    it(`removes the key echoed ${name}, wherever it sits in a message`, () => {
      for (let seed = 1; seed <= 50; seed++) {
        const random = seededRandom(seed);
        const text = `${message(random)}${form}${message(random)}`;
        const out = redact(text);
        for (const [other, value] of Object.entries(FORMS)) {
          assert.ok(!out.includes(value), `seed ${seed}: ${other} form left in ${JSON.stringify(out)}`);
        }
        assert.ok(out.includes('[REDACTED]'), `seed ${seed}`);
      }
    });
  }

  it('masks URL credentials and signed-URL queries', () => {
    assert.equal(redact('set to https://user:s3cret@api.example.com/v1'), 'set to https://[REDACTED]@api.example.com/v1');
    assert.equal(redact('GET https://s.example/a.gguf?sig=abc&expires=1 failed'), 'GET https://s.example/a.gguf?[REDACTED] failed');
  });
});

describe('describing a URL in a message', () => {
  it('names an https URL by origin and path, its query masked', () => {
    assert.equal(describeUrl('https://store.example/a/b?sig=secret'), 'https://store.example/a/b?[REDACTED]');
  });

  it('names file: and other URLs without an origin by scheme and path, never as "null"', () => {
    assert.equal(describeUrl('file:///etc/passwd'), 'file:///etc/passwd');
    assert.equal(describeUrl('file:///tmp/x?token=secret#h'), 'file:///tmp/x?[REDACTED]');
    assert.equal(describeUrl('javascript:alert(1)'), 'javascript:alert(1)');
    assert.ok(!describeUrl(`ftp://user:pw@host.example/f`).includes('pw'));
  });

  it('never copies a data: URL’s content (it can be the whole payload)', () => {
    const url = `data:application/octet-stream;base64,${'QUJD'.repeat(10_000)}`;
    assert.equal(describeUrl(url), 'a data: URL');
  });

  it('bounds a long URL without an origin', () => {
    assert.ok(describeUrl(`file:///${'a'.repeat(5000)}`).length <= 200);
  });
});
