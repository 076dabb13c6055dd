// A service URL that redirects (example.com → www.example.com, http → https) is never followed by the keyed client (the
// key would go along to wherever it leads): what a person reads names the URL and where it leads, and the base URL to
// set, never the key as the fault (issue 39). The emulator answers the model list with the redirect.
import { strict as assert } from 'node:assert';
import { keyCheckRefusal } from '../../src/features/apiKey/keyCheckRefusal';
import { classifyError } from '../../src/util/classifyError';
import { clientFor, useFaultEmulator } from './helpers';

const MODELS = '/cr/get_allowed_models';

describe('a service URL that redirects', function () {
  this.timeout(30_000);
  const ctx = useFaultEmulator();

  async function refusedWith(status: number, location: string): Promise<unknown> {
    ctx.emu.faults.add({ path: MODELS, kind: 'status', status, headers: { Location: location }, times: 5 });
    const error = await clientFor(ctx.emu)
      .listModels({ interactive: true })
      .then(
        () => assert.fail('the model list was read through a redirect'),
        (e: unknown) => e,
      );
    assert.equal(ctx.hits(MODELS), 1, 'a redirect is neither followed nor asked again');
    return error;
  }

  it('to another host: the key check names where the URL leads and the base URL to set, not the key', async () => {
    const error = await refusedWith(301, 'https://www.example.com/cr/get_allowed_models');
    const said = keyCheckRefusal(error);
    assert.match(
      said,
      /the service URL redirects \(301\) to https:\/\/www\.example\.com\/cr\/get_allowed_models; set hostedReasoning\.baseUrl to https:\/\/www\.example\.com\./,
    );
    assert.doesNotMatch(said, /Correct the key/);
    assert.equal(classifyError(error).fix?.id, 'configureBaseUrl');
  });

  it('by a relative Location under a path: the base URL to set keeps the path', async () => {
    const error = await refusedWith(308, '/v2/cr/get_allowed_models');
    assert.match(
      keyCheckRefusal(error),
      new RegExp(
        `redirects \\(308\\) to ${escape(ctx.emu.url)}/v2/cr/get_allowed_models; set hostedReasoning\\.baseUrl to ${escape(ctx.emu.url)}/v2\\.`,
      ),
    );
  });

  it('to a page that is not the API (a sign-in page): where it leads without its query, and no base URL offered', async () => {
    const error = await refusedWith(302, 'https://sso.example.com/login?next=%2Fcr&token=s3cret');
    const said = keyCheckRefusal(error);
    assert.match(
      said,
      /the service URL redirects \(302\) to https:\/\/sso\.example\.com\/login, which the extension does not follow: check hostedReasoning\.baseUrl\./,
    );
    assert.doesNotMatch(said, /s3cret|Correct the key|set hostedReasoning\.baseUrl to/);
    assert.equal(classifyError(error).fix?.id, 'configureBaseUrl');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
