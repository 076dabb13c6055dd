// Connections are kept between requests: the client's own keep-alive agents carry the API calls and the storage hop,
// so a run of calls (a journey, the poller's rounds) opens one connection per origin instead of one per request; and a
// caller that must not give an agent (VS Code under http.proxySupport "on", where it would opt out of the proxy) gives
// none. Counted on the emulator's side (connections it accepted) and on the agent's (the sockets it keeps).
import { strict as assert } from 'node:assert';
import { keepAliveAgents } from '../../src/api/keepAlive';
import { KEY, clientFor, tempDir, useEmulator } from './helpers';

/** Sockets the client's keep-alive agent holds (free, between requests) for the origin of `url`. */
function keptFor(url: string): number {
  const { host, port } = new URL(url);
  const free = keepAliveAgents().http.freeSockets as Record<string, unknown[] | undefined>;
  return Object.entries(free)
    .filter(([name]) => name.startsWith(`${host.replace(/:\d+$/, '')}:${port}:`))
    .reduce((n, [, sockets]) => n + (sockets?.length ?? 0), 0);
}

describe('keep-alive connections', () => {
  // The emulator keeps idle connections for a minute, as services commonly do (Node's server default is 5 s).
  const ctx = useEmulator({ keepAliveTimeoutMs: 60_000, artifactBytes: 256 * 1024 });
  const tmp = tempDir('hr-keepalive-');

  it('ten model lists and a download ride one connection per origin, on the client’s agent', async () => {
    const client = clientFor(ctx.emu);
    ctx.emu.clearReceived();
    for (let i = 0; i < 10; i++) await client.listModels();
    assert.equal(ctx.emu.connections.api, 1, 'connections opened for 10 lists');
    assert.equal(keptFor(ctx.emu.url), 1, 'the keep-alive agent does not hold the connection');
    await ctx.emu.addCustomModel(KEY, 'ka-model');
    await client.download('ka-model', { directory: tmp.dir });
    await client.download('ka-model', { directory: tmp.dir });
    const storage = ctx.emu.received.filter((r) => r.origin === 'storage');
    assert.equal(storage.length, 2);
    assert.equal(ctx.emu.connections.storage, 1, 'connections opened to the storage origin for two downloads');
    assert.equal(new Set(storage.map((r) => r.connection)).size, 1);
  });

  it('gives no agent when the caller says not to (VS Code under http.proxySupport "on")', async () => {
    let asked = 0;
    const client = clientFor(ctx.emu, KEY, {
      reuseConnections: () => {
        asked++;
        return false;
      },
    });
    keepAliveAgents().http.destroy();
    for (let i = 0; i < 3; i++) await client.listModels();
    assert.ok(asked >= 3, 'the client did not ask before each request');
    assert.equal(keptFor(ctx.emu.url), 0, 'the keep-alive agent carried a request it was not to be given');
  });
});
