// The last lines of an in-editor run name what failed: a CI page shows a run's end, and the whole report (every
// test of both windows) sits far above it. Session 10's CI failure on VS Code 1.104 showed only the restricted
// window's passing tests at its end; the trusted window's failure was out of sight.
import { strict as assert } from 'node:assert';
import { failureDigest, suitesPassed } from '../runners/suiteReport';
import type { SuiteResult } from '../suite/suiteResult';

function result(overrides: Partial<SuiteResult>): SuiteResult {
  return {
    vscodeVersion: '1.104.0',
    passes: 3,
    failures: 0,
    pending: 0,
    durationMs: 1000,
    lines: [],
    failureDetails: [],
    ...overrides,
  };
}

describe('what an in-editor run says last', () => {
  it('names each failing test with its message’s first line, and each passing window by its count', () => {
    const failing = result({
      passes: 70,
      failures: 1,
      failureDetails: [
        { title: 'Chat participant @every-host answers', message: '\nExpected values to be equal:', stack: 'AssertionError…' },
      ],
    });
    assert.deepEqual(
      failureDigest([
        { window: 'trusted', result: failing },
        { window: 'restricted', result: result({ passes: 6 }) },
      ]),
      [
        '  trusted window: 1 failing',
        '    1) Chat participant @every-host answers: Expected values to be equal:',
        '  restricted window: 6 passing',
      ],
    );
  });

  // CI's summary of a failing assert.equal once read "Expected values to be strictly equal:" and stopped: what was
  // expected and what came were in the lane's log only.
  it('prints an assertion’s diff under its title, whole lines, as node:assert wrote it', () => {
    let message = '';
    try {
      assert.equal('pass', 'loading~spin');
    } catch (error) {
      message = (error as Error).message;
    }
    const lines = failureDigest([
      { window: 'trusted', result: result({ failures: 1, failureDetails: [{ title: 'jobs view spins', message, stack: '' }] }) },
    ]);
    assert.deepEqual(lines, [
      '  trusted window: 1 failing',
      '    1) jobs view spins: Expected values to be strictly equal:',
      '       + actual - expected',
      "       + 'pass'",
      "       - 'loading~spin'",
    ]);
  });

  it('keeps a long diff to its first lines, and says that more of it is in the log', () => {
    const message = ['Expected values to be strictly deep-equal:', ...Array.from({ length: 40 }, (_, i) => `+ line ${i}`)].join('\n');
    const lines = failureDigest([
      { window: 'trusted', result: result({ failures: 1, failureDetails: [{ title: 't', message, stack: '' }] }) },
    ]);
    assert.equal(lines[1], '    1) t: Expected values to be strictly deep-equal:');
    assert.deepEqual(
      lines.slice(2, -1),
      Array.from({ length: 7 }, (_, i) => `       + line ${i}`),
    );
    assert.equal(lines.at(-1), '       … (33 more lines of this message above)');
  });

  it('says why a window gave no result, and that one ran nothing', () => {
    assert.deepEqual(
      failureDigest([
        { window: 'trusted', problem: 'the suite did not report within 12 min' },
        { window: 'restricted', result: result({ passes: 0 }) },
      ]),
      ['  trusted window: no result (the suite did not report within 12 min)', '  restricted window: no test ran'],
    );
  });

  it('keeps to a few lines when many tests fail, and says how many it left out', () => {
    const details = Array.from({ length: 12 }, (_, i) => ({ title: `t${i}`, message: `m${i}`, stack: '' }));
    const lines = failureDigest([{ window: 'trusted', result: result({ failures: 12, failureDetails: details }) }], 8);
    assert.equal(lines.length, 1 + 8 + 1);
    assert.equal(lines.at(-1), '    … and 4 more above');
  });

  it('fails a run when a window did not report, and passes it only when something ran', () => {
    assert.equal(suitesPassed([result({}), undefined]), false);
    assert.equal(suitesPassed([result({ passes: 0 }), result({ passes: 0 })]), false);
    assert.equal(suitesPassed([result({ passes: 0 }), result({ passes: 2 })]), true);
    assert.equal(suitesPassed([result({ failures: 1 })]), false);
  });
});
