// The extension bundle and the client bundle (dist/api.js) each carry a copy of errors.ts: `instanceof` and
// isApiError must hold across copies, and only for the right kind.
import { strict as assert } from 'node:assert';
import * as errors from '../../src/api/errors';

function freshCopy(): typeof errors {
  const id = require.resolve('../../src/api/errors');
  const cached = require.cache[id];
  delete require.cache[id];
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a second, independent module instance on purpose
    return require('../../src/api/errors') as typeof errors;
  } finally {
    if (cached) require.cache[id] = cached;
  }
}

describe('API errors across bundle copies', () => {
  const other = freshCopy();

  it('the copy is a different module', () => {
    assert.notEqual(other.AuthError, errors.AuthError);
  });

  it('instanceof checks the brand and the kind, whichever copy made the error', () => {
    const auth = new other.AuthError('refused');
    assert.ok(auth instanceof errors.ApiError);
    assert.ok(auth instanceof errors.AuthError);
    assert.ok(!(auth instanceof errors.ServerError));
    assert.ok(errors.isApiError(auth));
    assert.ok(new errors.CancelledError() instanceof other.CancelledError);
    assert.ok(errors.isCancellation(new other.CancelledError()));
  });

  it('FileChangedError is recognised across copies, and is not every IntegrityError', () => {
    const changed = new other.FileChangedError('docs/report.pdf');
    assert.ok(changed instanceof errors.FileChangedError);
    assert.ok(changed instanceof errors.IntegrityError);
    assert.equal(changed.message, 'docs/report.pdf changed during upload; nothing was created, start again.');
    assert.ok(!(new other.IntegrityError('length mismatch') instanceof errors.FileChangedError));
  });

  it('plain errors and look-alikes are not API errors', () => {
    assert.ok(!(new Error('x') instanceof errors.ApiError));
    assert.ok(!errors.isApiError({ kind: 'auth', message: 'forged' }));
    assert.ok(!((null as unknown as object) instanceof errors.ApiError));
  });

  it('still an Error with its name and kind', () => {
    const e = new other.RateLimitError('slow down', { retryAfterMs: 5 });
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'RateLimitError');
    assert.equal(e.kind, 'rateLimit');
    assert.equal((e).retryAfterMs, 5);
  });
});
