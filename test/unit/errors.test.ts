// One bundle holds every error class: callers tell them apart with plain `instanceof`, a subclass only for its own
// errors, and nothing that merely looks like an ApiError passes for one.
import { strict as assert } from 'node:assert';
import * as errors from '../../src/api/errors';

describe('API errors', () => {
  it('instanceof tells the kinds apart', () => {
    const auth = new errors.AuthError('refused');
    assert.ok(auth instanceof errors.ApiError);
    assert.ok(auth instanceof errors.AuthError);
    assert.ok(!(auth instanceof errors.ServerError));
    assert.ok(errors.isApiError(auth));
    assert.ok(errors.isCancellation(new errors.CancelledError()));
  });

  it('FileChangedError is an IntegrityError, and not every IntegrityError is one', () => {
    const changed = new errors.FileChangedError('docs/report.pdf');
    assert.ok(changed instanceof errors.IntegrityError);
    assert.equal(changed.kind, 'integrity');
    assert.equal(changed.message, 'docs/report.pdf changed during upload; nothing was created, start again.');
    assert.ok(!(new errors.IntegrityError('length mismatch') instanceof errors.FileChangedError));
  });

  it('DiskError is a refused request, and not every RequestError is one', () => {
    const disk = new errors.DiskError('disk full', 'ENOSPC', 10, '/tmp/m.gguf.part');
    assert.ok(disk instanceof errors.RequestError);
    assert.equal(disk.kind, 'request');
    assert.ok(!(new errors.RequestError('bad input') instanceof errors.DiskError));
  });

  it('plain errors and look-alikes are not API errors', () => {
    assert.ok(!(new Error('x') instanceof errors.ApiError));
    assert.ok(!errors.isApiError({ kind: 'auth', message: 'forged' }));
    assert.ok(!errors.isApiError(null));
  });

  it('still an Error with its name and kind', () => {
    const e = new errors.RateLimitError('slow down', { retryAfterMs: 5 });
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'RateLimitError');
    assert.equal(e.kind, 'rateLimit');
    assert.equal(e.retryAfterMs, 5);
  });
});
