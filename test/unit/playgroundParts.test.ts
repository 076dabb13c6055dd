// The playground's smaller pieces: the page's security policy, the form's checks, error mapping and the session
// export.
import { strict as assert } from 'node:assert';
import { contentSecurityPolicy, webviewHtml } from '../../src/util/webviewHtml';
import { LIMITS, type ExportedRun } from '../../src/features/playground/protocol';
import { runErrorInfo } from '../../src/features/playground/host/runError';
import { exportFileName, fenced, sessionMarkdown } from '../../src/features/playground/host/sessionExport';
import {
  budgetProblem,
  composedPrompt,
  DEFAULT_KNOBS,
  knobProblems,
  promptProblems,
  temperatureProblem,
  toRunSettings,
} from '../../src/features/playground/page/formValidation';
import { AuthError, CancelledError, NetworkError, RequestError, ServerError } from '../../src/api/errors';

describe('playground page', () => {
  const input = {
    cspSource: 'https://file+.vscode-resource.example',
    nonce: 'abc+/123=',
    scriptUri: 'https://x/p.js',
    styleUris: ['https://x/c.css', 'https://x/p.css'],
    title: 'Playground',
    root: { tag: 'div', testId: 'playground' },
  } as const;

  it('allows nothing but its own files and one nonce script', () => {
    assert.equal(
      contentSecurityPolicy(input.cspSource, input.nonce),
      `default-src 'none'; script-src 'nonce-abc+/123='; style-src ${input.cspSource}; font-src ${input.cspSource}; img-src ${input.cspSource}`,
    );
    const html = webviewHtml(input);
    assert.equal(html.match(/<script/g)?.length, 1);
    assert.match(html, /<script nonce="abc\+\/123=" src="https:\/\/x\/p\.js"><\/script>/);
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|style=/);
  });

  it('escapes what it puts in attributes', () => {
    assert.match(webviewHtml({ ...input, scriptUri: 'https://x/"><script>' }), /src="https:\/\/x\/&quot;&gt;&lt;script&gt;"/);
  });
});

describe('playground form checks', () => {
  it('temperature: a number from 0 to 2, explained', () => {
    for (const ok of ['0', '2', '0.7', ' 1.5 ', '1e-1']) assert.equal(temperatureProblem(ok), undefined, ok);
    assert.match(temperatureProblem('') ?? '', /number from 0 to 2/);
    assert.match(temperatureProblem('warm') ?? '', /number from 0 to 2/);
    assert.match(temperatureProblem('2.5') ?? '', /between 0 and 2; 2\.5 is outside/);
    assert.match(temperatureProblem('-0.1') ?? '', /outside/);
  });

  it('budgets: positive whole numbers', () => {
    for (const ok of ['1', '64', ' 8 ']) assert.equal(budgetProblem('B', ok), undefined, ok);
    for (const bad of ['0', '-1', '1.5', 'x', '', '1e2']) {
      assert.match(budgetProblem('Parallel budget', bad) ?? '', /Parallel budget must be a whole number of at least 1/, bad);
    }
    assert.match(budgetProblem('B', '2000000') ?? '', /at most/);
  });

  it('collects every problem and builds settings only when there are none', () => {
    const prompt = { context: '', prompt: 'hi', queryOnly: '', customQuery: false };
    assert.deepEqual(Object.keys(knobProblems({ ...DEFAULT_KNOBS, temperature: '3', parallelBudget: '0' })).sort(), [
      'modelName',
      'parallelBudget',
      'temperature',
    ]);
    assert.deepEqual(promptProblems({ ...prompt, prompt: '  ' }), { prompt: 'Enter a prompt.' });
    assert.equal(toRunSettings(DEFAULT_KNOBS, prompt), undefined);
    assert.deepEqual(toRunSettings({ ...DEFAULT_KNOBS, modelName: ' m ' }, prompt), {
      modelName: 'm',
      prompt: 'hi',
      temperature: 0.7,
      useRag: false,
      sequentialBudget: 8,
      parallelBudget: 1,
      stream: true,
    });
    assert.equal(toRunSettings({ ...DEFAULT_KNOBS, modelName: 'm' }, { ...prompt, queryOnly: 'q', customQuery: true })?.queryOnly, 'q');
  });

  it('asks about a context: the context fenced then the question as the prompt, the question alone as the query part', () => {
    const knobs = { ...DEFAULT_KNOBS, modelName: 'm' };
    const asked = { context: 'const a = `x`;\n```js\nb()\n```', prompt: 'Explain this code.', queryOnly: '', customQuery: false };
    const settings = toRunSettings(knobs, asked);
    assert.equal(settings?.prompt, '````\nconst a = `x`;\n```js\nb()\n```\n````\n\nExplain this code.');
    assert.equal(settings?.queryOnly, 'Explain this code.');
    assert.equal(composedPrompt({ ...asked, context: 'x' }), '```\nx\n```\n\nExplain this code.');
    assert.equal(toRunSettings(knobs, { ...asked, customQuery: true, queryOnly: 'mine' })?.queryOnly, 'mine');
    assert.deepEqual(promptProblems({ ...asked, prompt: ' ' }), { prompt: 'Enter a question about the context.' });
    const huge = 'x'.repeat(LIMITS.promptChars - 5);
    assert.match(promptProblems({ ...asked, context: huge }).prompt ?? '', /longer than/);
  });
});

describe('playground error mapping', () => {
  it('keeps the client error message and kind, and says what helps', () => {
    assert.deepEqual(runErrorInfo(new RequestError('Inference: refused (422): temperature too high.')), {
      message: 'Inference: refused (422): temperature too high.',
      kind: 'request',
      retryable: false,
    });
    assert.deepEqual(runErrorInfo(new ServerError('down')), { message: 'down', kind: 'server', retryable: true, fix: 'showLog' });
    assert.deepEqual(runErrorInfo(new NetworkError('refused')), {
      message: 'refused',
      kind: 'network',
      retryable: true,
      fix: 'configureBaseUrl',
    });
    assert.deepEqual(runErrorInfo(new AuthError('bad key')), { message: 'bad key', kind: 'auth', retryable: false, fix: 'setApiKey' });
    assert.equal(runErrorInfo(new CancelledError()).kind, 'cancelled');
  });

  it('reads the kind from a look-alike of another bundle, not by class', () => {
    assert.equal(runErrorInfo({ name: 'ServerError', kind: 'server', message: 'm' }).kind, 'server');
    assert.equal(runErrorInfo({ kind: 'bogus', message: 'm' }).kind, 'unexpected');
  });

  it('wraps unexpected errors and bounds the message', () => {
    const info = runErrorInfo(new TypeError('x'.repeat(5000)));
    assert.equal(info.kind, 'unexpected');
    assert.equal(info.fix, 'showLog');
    assert.ok(info.message.startsWith('Inference failed: '));
    assert.ok(info.message.length <= 2000);
    assert.equal(runErrorInfo('plain').message, 'Inference failed: plain');
  });
});

describe('playground session export', () => {
  const base: ExportedRun = {
    runId: 'r1',
    startedAt: Date.UTC(2024, 4, 1, 12, 0, 0),
    settings: {
      modelName: 'oss-reasoner-8b',
      prompt: 'Use ``` fences',
      temperature: 0.2,
      useRag: true,
      sequentialBudget: 8,
      parallelBudget: 2,
      stream: true,
    },
    output: '# Answer\n\n```ts\nx\n```',
    outcome: 'done',
    timing: { ttfbMs: 120, totalMs: 2500, chars: 22 },
  };

  it('writes settings, timing, the prompt fenced and the answer as markdown', () => {
    const md = sessionMarkdown(
      [
        base,
        {
          ...base,
          runId: 'r2',
          outcome: 'error',
          error: 'Inference: the service failed (502).',
          output: '',
          settings: { ...base.settings, queryOnly: 'q' },
        },
      ],
      new Date(Date.UTC(2024, 4, 1)),
    );
    assert.match(md, /^# Playground session\n\nExported 2024-05-01T00:00:00\.000Z, 2 runs\./);
    assert.match(md, /## 1\. oss-reasoner-8b — 2024-05-01T12:00:00\.000Z/);
    assert.match(md, /- Settings: temperature 0\.2, RAG on, budgets 8 sequential × 2 parallel, streamed/);
    assert.match(md, /- Timing: first text after 120 ms, total 2\.50 s, 22 characters/);
    assert.match(md, /````text\nUse ``` fences\n````/);
    assert.match(md, /### Answer\n\n# Answer\n\n```ts\nx\n```/);
    assert.match(md, /- Outcome: error — Inference: the service failed \(502\)\./);
    assert.match(md, /### Query part\n\n```text\nq\n```/);
    assert.match(md, /_\(no output\)_/);
  });

  it('fences any text safely and names files by date', () => {
    assert.equal(fenced('a'), '```text\na\n```');
    assert.equal(fenced('`````'), '``````text\n`````\n``````');
    assert.equal(exportFileName(new Date(2024, 0, 2, 3, 4)), 'playground-2024-01-02-0304.md');
  });

  it('fences a prompt holding more backtick runs than a call can take arguments (no RangeError)', () => {
    const prompt = '`a'.repeat(200_000) + '````';
    const md = fenced(prompt);
    assert.ok(md.startsWith('`````text\n'), md.slice(0, 12));
    assert.ok(md.endsWith('\n`````'));
  });
});
