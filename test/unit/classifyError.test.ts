// The one mapping from a failure to what the user sees and can do: every kind, the special ApiErrors, and the values
// that are not errors at all.
import { strict as assert } from 'node:assert';
import {
  API_ERROR_KINDS,
  ApiError,
  AuthError,
  CancelledError,
  ContractError,
  DiskError,
  FileChangedError,
  IntegrityError,
  NetworkError,
  ProxyAuthError,
  RateLimitError,
  RequestError,
  ServerError,
  TimeoutError,
  type ApiErrorKind,
} from '../../src/api/errors';
import { classifyError, FIXES } from '../../src/util/classifyError';

/** What the user can do, by kind: Retry or not, and the one fixing command. */
const EXPECTED: Record<ApiErrorKind, { retryable: boolean; fix?: string }> = {
  auth: { retryable: false, fix: 'hostedReasoning.setApiKey' },
  proxy: { retryable: false, fix: 'hostedReasoning.openProxySettings' },
  rateLimit: { retryable: true },
  server: { retryable: true, fix: 'hostedReasoning.showLog' },
  network: { retryable: true, fix: 'hostedReasoning.configureBaseUrl' },
  timeout: { retryable: true },
  cancelled: { retryable: false },
  request: { retryable: false },
  contract: { retryable: false, fix: 'hostedReasoning.showLog' },
  integrity: { retryable: false, fix: 'hostedReasoning.showLog' },
};

const CLASSES: Record<ApiErrorKind, new (message: string) => ApiError> = {
  auth: AuthError,
  proxy: ProxyAuthError,
  rateLimit: RateLimitError,
  server: ServerError,
  network: NetworkError,
  timeout: TimeoutError,
  cancelled: CancelledError,
  request: RequestError,
  contract: ContractError,
  integrity: IntegrityError,
};

function notConfigured(missing: 'baseUrl' | 'apiKey'): Error {
  // session.ts imports vscode; the classifier reads the error by its name and field, as this look-alike has them.
  return Object.assign(new Error(missing === 'baseUrl' ? 'No service URL is configured.' : 'No API key is set.'), {
    name: 'NotConfiguredError',
    missing,
  });
}

describe('classifyError', () => {
  for (const kind of API_ERROR_KINDS) {
    it(`${kind}: keeps the message and says whether Retry helps and what fixes it`, () => {
      const info = classifyError(new CLASSES[kind](`the ${kind} message`));
      assert.deepEqual(
        { kind: info.kind, message: info.message, retryable: info.retryable, fix: info.fix?.command },
        { kind, message: `the ${kind} message`, ...EXPECTED[kind], fix: EXPECTED[kind].fix },
      );
    });
  }

  it('reads the kind of a look-alike from another bundle copy by its fields', () => {
    assert.equal(classifyError({ name: 'ServerError', kind: 'server', message: 'down' }).kind, 'server');
    assert.equal(classifyError({ kind: 'bogus', message: 'm' }).kind, 'unexpected');
  });

  it('an answer kept for the person to choose how to read offers Choose How to Read…, by its kind; any other contract error the log', () => {
    const kept = (choosable: 'answer' | 'stream' | 'download') => Object.assign(new ContractError('cannot read'), { choosable });
    assert.equal(classifyError(kept('answer')).fix, FIXES.chooseAnswerReading);
    assert.equal(classifyError(kept('stream')).fix, FIXES.chooseAnswerReading);
    assert.equal(classifyError(kept('download')).fix, FIXES.chooseDownloadReading);
    assert.equal(FIXES.chooseAnswerReading.title, 'Choose How to Read…');
    // One command for every kind of answer: the fix names the place whose last answer it opens, never a path.
    assert.equal(FIXES.chooseAnswerReading.command, 'hostedReasoning.chooseHowToRead');
    assert.equal(FIXES.chooseDownloadReading.command, 'hostedReasoning.chooseHowToRead');
    assert.deepEqual(FIXES.chooseAnswerReading.args, [{ place: 'answer' }]);
    assert.deepEqual(FIXES.chooseDownloadReading.args, [{ place: 'download' }]);
    assert.equal(classifyError(kept('download')).retryable, false);
    assert.equal(classifyError(new ContractError('cannot read')).fix, FIXES.showLog);
    // By shape, as every kind: a look-alike from the other bundle copy offers it too.
    assert.equal(classifyError({ kind: 'contract', message: 'x', choosable: 'download' }).fix, FIXES.chooseDownloadReading);
  });

  it('a missing URL or key offers the setting that is missing, never Retry', () => {
    assert.deepEqual(classifyError(notConfigured('baseUrl')), {
      kind: 'notConfigured',
      retryable: false,
      message: 'No service URL is configured.',
      fix: FIXES.configureBaseUrl,
    });
    assert.deepEqual(classifyError(notConfigured('apiKey')), {
      kind: 'notConfigured',
      retryable: false,
      message: 'No API key is set.',
      fix: FIXES.setApiKey,
    });
  });

  it('a file changed during upload offers neither Retry nor the log: its message says to start again', () => {
    const info = classifyError(new FileChangedError('docs/report.pdf'));
    assert.deepEqual(info, {
      kind: 'integrity',
      retryable: false,
      message: 'docs/report.pdf changed during upload; nothing was created, start again.',
    });
  });

  it('a full disk is a refused request with no fix of its own (the download offers Resume)', () => {
    const info = classifyError(
      new DiskError('Cannot write the download: the disk is full. 10 bytes are kept in m.part.', 'ENOSPC', 10, 'm.part'),
    );
    assert.deepEqual(info, {
      kind: 'request',
      retryable: false,
      message: 'Cannot write the download: the disk is full. 10 bytes are kept in m.part.',
    });
  });

  const unexpected: [string, unknown, string][] = [
    ['a plain Error', new TypeError('x is not a function'), 'x is not a function'],
    ['a string', 'plain words', 'plain words'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['an Error without a message', new Error(''), 'Error'],
  ];
  for (const [what, value, message] of unexpected) {
    it(`${what} is unexpected: the log is the fix, the context leads the message`, () => {
      assert.deepEqual(classifyError(value), { kind: 'unexpected', retryable: false, message, fix: FIXES.showLog });
      assert.equal(classifyError(value, 'Inference failed').message, `Inference failed: ${message}`);
    });
  }

  it('the context leads only an unexpected message: a service error says what failed in its own words', () => {
    assert.equal(classifyError(new ServerError('The service failed (503).'), 'Inference failed').message, 'The service failed (503).');
  });

  it('bounds the message', () => {
    const info = classifyError(new RequestError('x'.repeat(5000)));
    assert.equal(info.message.length, 2000);
    assert.ok(info.message.endsWith('…'));
  });
});
