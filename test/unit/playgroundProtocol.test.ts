// The playground's webview -> host guard: every message type accepted in its valid form, and refused when a field is
// missing, extra, of the wrong type, out of range or too large. The host acts only on what passes.
import { strict as assert } from 'node:assert';
import {
  isHostMessage,
  isPreset,
  isWebviewMessage,
  LIMITS,
  webviewMessageProblem,
  type RunSettings,
  type WebviewToHost,
} from '../../src/features/playground/protocol';

const settings: RunSettings = {
  modelName: 'oss-reasoner-8b',
  prompt: 'Why is the sky blue?',
  temperature: 0.7,
  useRag: false,
  sequentialBudget: 8,
  parallelBudget: 1,
  stream: true,
};

const VALID: Record<WebviewToHost['type'], WebviewToHost> = {
  ready: { type: 'ready' },
  run: { type: 'run', runId: 'r0123abc', settings },
  stop: { type: 'stop', runId: 'r0123abc' },
  refreshModels: { type: 'refreshModels' },
  copy: { type: 'copy', text: 'some `code`' },
  openLink: { type: 'openLink', url: 'https://example.com/a?b=c' },
  savePreset: {
    type: 'savePreset',
    preset: { name: 'Cold', settings: { temperature: 0, useRag: true, sequentialBudget: 2, parallelBudget: 2, stream: false } },
  },
  deletePreset: { type: 'deletePreset', name: 'Cold' },
  export: {
    type: 'export',
    runs: [
      {
        runId: 'r1',
        startedAt: 1_700_000_000_000,
        settings,
        output: '# hi',
        outcome: 'done',
        timing: { ttfbMs: 12.5, totalMs: 300, chars: 4 },
      },
      {
        runId: 'r2',
        startedAt: 1_700_000_000_001,
        settings: { ...settings, queryOnly: 'sky' },
        output: '',
        outcome: 'error',
        error: 'boom',
      },
    ],
  },
  fix: { type: 'fix', fix: 'setApiKey' },
};

/** A deep copy with `edit` applied: the invalid variants start from a valid message. */
function variant<T extends WebviewToHost>(message: T, edit: (m: Record<string, unknown>) => void): unknown {
  const copy = JSON.parse(JSON.stringify(message)) as Record<string, unknown>;
  edit(copy);
  return copy;
}

function refused(x: unknown, because?: RegExp): void {
  assert.equal(isWebviewMessage(x), false, `accepted ${JSON.stringify(x)?.slice(0, 200)}`);
  if (because) assert.match(webviewMessageProblem(x) ?? '', because);
}

describe('playground protocol guard', () => {
  for (const [type, message] of Object.entries(VALID)) {
    it(`accepts a valid "${type}"`, () => {
      assert.equal(webviewMessageProblem(message), undefined);
      assert.equal(isWebviewMessage(message), true);
    });

    it(`refuses "${type}" with an extra field`, () => {
      refused(
        variant(message, (m) => (m.extra = 1)),
        /unknown field "extra"/,
      );
    });

    it(`refuses "${type}" with each field missing`, () => {
      for (const key of Object.keys(message)) {
        refused(
          variant(message, (m) => delete m[key]),
          key === 'type' ? /unknown message type/ : new RegExp(`missing field "${key}"`),
        );
      }
    });
  }

  it('refuses what is not a message', () => {
    for (const x of [
      undefined,
      null,
      0,
      'ready',
      [],
      [{ type: 'ready' }],
      { type: 'nope' },
      { type: 7 },
      { type: 'toString' },
      { type: '__proto__' },
    ]) {
      refused(x);
    }
  });

  it('refuses a __proto__ key smuggled in through JSON', () => {
    refused(JSON.parse('{"type":"ready","__proto__":{"polluted":true}}'), /unknown field "__proto__"/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('refuses malformed run ids', () => {
    for (const runId of ['', 'a'.repeat(65), 'r 1', 'r/1', '../x', 'r\n1', 7, null]) {
      refused({ type: 'stop', runId }, /runId/);
      refused({ type: 'run', runId, settings }, /runId/);
    }
    assert.equal(isWebviewMessage({ type: 'stop', runId: 'a'.repeat(64) }), true);
  });

  it('checks every run setting: types, ranges, lengths', () => {
    const bad: [keyof RunSettings, unknown][] = [
      ['modelName', ''],
      ['modelName', '   '],
      ['modelName', 'm'.repeat(LIMITS.modelNameChars + 1)],
      ['modelName', 42],
      ['prompt', ''],
      ['prompt', ' \n\t'],
      ['prompt', 'p'.repeat(LIMITS.promptChars + 1)],
      ['queryOnly', 7],
      ['queryOnly', 'q'.repeat(LIMITS.promptChars + 1)],
      ['temperature', '0.7'],
      ['temperature', Number.NaN],
      ['temperature', Number.POSITIVE_INFINITY],
      ['temperature', 1e9],
      ['useRag', 'true'],
      ['useRag', 1],
      ['sequentialBudget', 0],
      ['sequentialBudget', -1],
      ['sequentialBudget', 1.5],
      ['sequentialBudget', '8'],
      ['parallelBudget', LIMITS.budgetMax + 1],
      ['stream', null],
    ];
    for (const [key, value] of bad) {
      refused(
        variant(VALID.run, (m) => ((m.settings as Record<string, unknown>)[key] = value)),
        new RegExp(`settings: ${key}`),
      );
    }
    refused(
      variant(VALID.run, (m) => ((m.settings as Record<string, unknown>).apiKey = 'secret')),
      /unknown field "apiKey"/,
    );
    refused(
      variant(VALID.run, (m) => (m.settings = [settings])),
      /settings: not an object/,
    );
  });

  it('lets an out-of-form temperature through for the service to judge (the form checks 0..2)', () => {
    assert.equal(isWebviewMessage(variant(VALID.run, (m) => ((m.settings as RunSettings).temperature = 99))), true);
    assert.equal(isWebviewMessage(variant(VALID.run, (m) => ((m.settings as RunSettings).temperature = -0.5))), true);
  });

  it('bounds sizes of copied text, links, presets and exports', () => {
    refused({ type: 'copy', text: 'x'.repeat(LIMITS.copyChars + 1) }, /text: longer/);
    refused({ type: 'copy', text: 5 }, /text: not a string/);
    refused({ type: 'openLink', url: '' }, /url/);
    refused({ type: 'openLink', url: `https://e.com/${'a'.repeat(LIMITS.urlChars)}` }, /url: longer/);
    refused({ type: 'deletePreset', name: 'n'.repeat(LIMITS.presetNameChars + 1) }, /name/);
    refused(
      variant(VALID.savePreset, (m) => ((m.preset as { name: string }).name = ' ')),
      /preset: name: blank/,
    );
    refused(
      variant(VALID.savePreset, (m) => ((m.preset as { settings: Record<string, unknown> }).settings.prompt = 'no prompts in presets')),
      /unknown field "prompt"/,
    );
    refused(
      variant(
        VALID.export,
        (m) => (m.runs = Array.from({ length: LIMITS.exportRuns + 1 }, () => (VALID.export as { runs: unknown[] }).runs[0])),
      ),
      /more than/,
    );
    refused(
      variant(VALID.export, (m) => ((m.runs as Record<string, unknown>[])[0]!.outcome = 'exploded')),
      /outcome/,
    );
    refused(
      variant(VALID.export, (m) => ((m.runs as Record<string, unknown>[])[0]!.output = 'o'.repeat(LIMITS.exportOutputChars + 1))),
      /output: longer/,
    );
    refused(
      variant(VALID.export, (m) => ((m.runs as { timing: Record<string, unknown> }[])[0]!.timing.chars = 1.5)),
      /chars: not an integer/,
    );
    refused(
      variant(VALID.export, (m) => (m.runs = {})),
      /runs: not an array/,
    );
  });

  it('accepts only the named fixes (the webview never names a command)', () => {
    refused({ type: 'fix', fix: 'workbench.action.terminal.new' }, /fix: not an allowed value/);
    refused({ type: 'fix', fix: 'hostedReasoning.setApiKey' });
    for (const fix of ['setApiKey', 'configureBaseUrl', 'showLog']) assert.equal(isWebviewMessage({ type: 'fix', fix }), true);
  });

  it('checks presets read back from storage', () => {
    assert.equal(isPreset((VALID.savePreset as { preset: unknown }).preset), true);
    assert.equal(isPreset({ name: 'x', settings: { temperature: 'hot' } }), false);
    assert.equal(isPreset(null), false);
  });

  it('recognises host messages by type only', () => {
    assert.equal(isHostMessage({ type: 'chunk', runId: 'r', seq: 0, text: '' }), true);
    assert.equal(isHostMessage({ type: 'run' }), false);
    assert.equal(isHostMessage('chunk'), false);
  });
});
