// The oldest VS Code host runs only the in-editor tests tagged EVERY_HOST_TAG (test/runners/vscodeServerLayout.ts):
// those of APIs that differ between versions. A test file that reaches one of them must carry the tag on each of its
// top-level describe blocks, or it would silently run on the newest host alone.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EVERY_HOST_TAG } from '../suite/suiteResult';
import { suiteGrep } from '../suite/suiteGrep';

const suiteSources = path.join(__dirname, '..', '..', '..', 'test', 'suite');

/** What differs between VS Code versions, as a test file reaches it. */
const VERSION_DEPENDENT: readonly [RegExp, string][] = [
  [/vscode\.lm\.|vscode\.chat\.|invokeTool/, 'Chat, vscode.lm or tools'],
  [/http\.proxy|proxySupport/, 'the proxy settings'],
  [/isTrusted|TRUST_PASS_ENV/, 'workspace trust'],
  [/from '\.\/webviewPage'/, 'the webview page in the workbench'],
];

function testFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => path.join(dir, f));
}

describe('in-editor tests run on every VS Code host where versions differ', () => {
  it('tags every top-level describe of a file that uses an API differing between versions', () => {
    const untagged: string[] = [];
    for (const file of testFiles(suiteSources)) {
      const text = fs.readFileSync(file, 'utf8');
      const reasons = VERSION_DEPENDENT.filter(([pattern]) => pattern.test(text)).map(([, why]) => why);
      if (reasons.length === 0) continue;
      const describes = [...text.matchAll(/^describe\((.*)$/gm)].map((m) => m[1]!);
      assert.ok(describes.length > 0, `${file} has no top-level describe`);
      for (const line of describes) {
        if (!line.includes('${EVERY_HOST_TAG}')) untagged.push(`${path.relative(suiteSources, file)} (${reasons.join(', ')}): ${line}`);
      }
    }
    assert.deepEqual(untagged, []);
  });

  it('runs a tagged test and skips an untagged one, with or without a pattern', () => {
    const tagged = `models in vscode.lm ${EVERY_HOST_TAG} lists the models`;
    const untagged = 'jobs view and status bar shows a running job';
    const onlyTagged = suiteGrep(undefined, EVERY_HOST_TAG)!;
    assert.equal(onlyTagged.test(tagged), true);
    assert.equal(onlyTagged.test(untagged), false);
    const both = suiteGrep('lists|shows', EVERY_HOST_TAG)!;
    assert.equal(both.test(tagged), true);
    assert.equal(both.test(untagged), false, 'the pattern alone matches it; the tag does not');
    assert.equal(suiteGrep('jobs view', undefined)!.test(untagged), true);
    assert.equal(suiteGrep(undefined, undefined), undefined);
    assert.equal(suiteGrep(undefined, '@a.b')!.test('x @aXb y'), false, 'the tag is a word, not a pattern');
  });
});
