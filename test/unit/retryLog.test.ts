// A retry's log line says what was being done once, and the wait it says is the wait it takes.
import { strict as assert } from 'node:assert';
import { HttpClient } from '../../src/api/http';
import { useEmulator } from './helpers';

describe('retry log', function () {
  this.timeout(20_000);
  const ctx = useEmulator();
  beforeEach(() => ctx.emu.faults.clear());

  it('says its prefix once ("Listing models: …", not "Listing models: Listing models: …")', async () => {
    ctx.emu.faults.add({ path: '/cr/get_allowed_models', kind: 'status', status: 503, times: 1 });
    const lines: string[] = [];
    const http = new HttpClient({
      baseUrl: ctx.emu.url,
      apiKey: 'demo-key',
      log: (_level, message) => lines.push(message),
      sleep: () => Promise.resolve(),
      random: () => 0.5,
    });
    await http.getJson('Listing models', '/cr/get_allowed_models', undefined);
    const retry = lines.find((l) => /Retrying in/.test(l));
    assert.ok(retry, lines.join('\n'));
    assert.match(retry, /^Listing models: the service failed \(503\)/);
    assert.doesNotMatch(retry, /Listing models: Listing models/);
  });

  it('goes when it says: the logged wait is the slept wait, to the tenth of a second', async () => {
    for (const random of [0, 0.37, 0.99]) {
      ctx.emu.faults.clear();
      ctx.emu.faults.add({ path: '/cr/get_allowed_models', kind: 'status', status: 502, times: 2 });
      const lines: string[] = [];
      const slept: number[] = [];
      const http = new HttpClient({
        baseUrl: ctx.emu.url,
        apiKey: 'demo-key',
        log: (_level, message) => lines.push(message),
        sleep: (ms) => Promise.resolve(void slept.push(ms)),
        random: () => random,
      });
      await http.getJson('Listing models', '/cr/get_allowed_models', undefined);
      const said = lines.filter((l) => /Retrying in/.test(l)).map((l) => Number(/Retrying in (\d+(?:\.\d+)?) s/.exec(l)?.[1]) * 1000);
      assert.deepEqual(said, slept, `random ${random}: said ${said.join(', ')} ms, slept ${slept.join(', ')} ms`);
      assert.equal(slept.length, 2);
    }
  });
});
