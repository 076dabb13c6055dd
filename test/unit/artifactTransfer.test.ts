// The artifact transfer the Download Model Artifact command and the hosted_download_model tool share
// (src/features/download/artifactTransfer.ts), against the emulator: a second request for the same model into the same
// folder joins the running transfer (one GET of the artifact); the pending record is kept while the transfer runs and
// after a cancel, and forgotten once the file is whole or a checksum failure deleted the part file; the name the
// service accepted is kept and the finished file recorded for Run Locally. (The command's and the tool's own UI: the
// in-editor suite, download.test.ts and languageModelTools.test.ts.)
import { strict as assert } from 'node:assert';
import { promises as fsp, readdirSync } from 'node:fs';
import { CancelledError, IntegrityError } from '../../src/api/errors';
import { transferArtifact } from '../../src/features/download/artifactTransfer';
import { pendingDownloads } from '../../src/features/download/pendingDownloads';
import type { Services } from '../../src/services';
import { EchoingWorkbench, servicesOver } from './echoingState';
import { KEY, clientFor, useDownloadEmulator } from './helpers';

const MODEL = 'transfer-model';
const ARTIFACT = /\/artifacts\//;
const SCOPE = 'scope-of-the-test';

/** The services the transfer uses: globalState and the log, and what it tells the known names and the local models. */
function fakeServices() {
  const accepted: [string, string][] = [];
  const recorded: [string, string, string, number][] = [];
  const logged: string[] = [];
  const base = servicesOver(new EchoingWorkbench().window(), logged);
  const services = Object.assign(base, {
    knownModels: {
      accepted: (origin: string, name: string) => {
        accepted.push([origin, name]);
        return Promise.resolve();
      },
    },
    local: {
      recordDownload: (origin: string, modelName: string, file: string, bytes: number) => {
        recorded.push([origin, modelName, file, bytes]);
        return Promise.resolve();
      },
    },
  }) as unknown as Services;
  return { services, accepted, recorded, logged };
}

describe('the artifact transfer shared by the download command and tool', function () {
  this.timeout(30_000);
  const ctx = useDownloadEmulator(MODEL, 384 * 1024, { downloadMode: 'redirect', storageChecksum: 'none' });
  const tmp = ctx.tmp;
  const storageGets = () => ctx.emu.received.filter((r) => r.origin === 'storage' && r.method === 'GET');

  it('joins a transfer of the same model into the same folder already running: one GET, one file, one outcome', async () => {
    const { services, accepted, recorded } = fakeServices();
    const client = clientFor(ctx.emu);
    const connection = { client, scope: SCOPE };
    const first = transferArtifact(services, connection, { modelName: MODEL, directory: tmp.dir }, { shown: true });
    const second = transferArtifact(services, connection, { modelName: MODEL, directory: tmp.dir });
    assert.equal(first.joined, false);
    assert.equal(second.joined, true);
    assert.equal(second.shown, true, 'the joiner is not told the transfer it joined is shown (a progress notification)');
    const [a, b] = await Promise.all([first.outcome, second.outcome]);
    assert.deepEqual(b, a);
    assert.equal(storageGets().length, 1, 'the artifact was fetched twice');
    assert.deepEqual(readdirSync(tmp.dir), [`${MODEL}.gguf`]);
    assert.ok((await fsp.readFile(a.path)).equals(await fsp.readFile(ctx.emu.artifactPath(MODEL)!)));
    assert.deepEqual(pendingDownloads(services), [], 'the finished download is still recorded as pending');
    const origin = new URL(ctx.emu.url).origin;
    assert.deepEqual(accepted, [[origin, MODEL]]);
    assert.deepEqual(recorded, [[origin, MODEL, a.path, a.bytes]]);

    // Ended: the next request starts a transfer of its own (a second file beside the first), not a join of the last.
    const third = transferArtifact(services, connection, { modelName: MODEL, directory: tmp.dir });
    assert.equal(third.joined, false);
    assert.equal(third.shown, false);
    assert.notEqual((await third.outcome).path, a.path);
    assert.equal(storageGets().length, 2);
  });

  it('keeps the pending record while the transfer runs and after a cancel (the part file stays for a resume)', async () => {
    const { services } = fakeServices();
    const controller = new AbortController();
    let recordedWhileRunning: unknown;
    const started = transferArtifact(
      services,
      { client: clientFor(ctx.emu), scope: SCOPE },
      { modelName: MODEL, directory: tmp.dir },
      {
        signal: controller.signal,
        onProgress: (p) => {
          if (p.received === 0) return;
          recordedWhileRunning ??= pendingDownloads(services);
          controller.abort();
        },
      },
    );
    await assert.rejects(started.outcome, CancelledError);
    const record = { modelName: MODEL, directory: tmp.dir, scope: SCOPE };
    assert.deepEqual(recordedWhileRunning, [record]);
    assert.deepEqual(pendingDownloads(services), [record]);
    assert.ok(
      readdirSync(tmp.dir).some((f) => f.endsWith('.part')),
      `no part file kept: ${readdirSync(tmp.dir).join(', ')}`,
    );
  });

  it('forgets the pending record after a checksum failure, which leaves no part file to resume', async () => {
    const { services, recorded } = fakeServices();
    const bytes = await fsp.readFile(ctx.emu.artifactPath(MODEL)!);
    ctx.emu.faults.add({
      origin: 'storage',
      path: ARTIFACT,
      kind: 'body',
      body: bytes,
      contentType: 'application/octet-stream',
      headers: { 'x-checksum-sha256': 'ab'.repeat(32) },
    });
    const started = transferArtifact(services, { client: clientFor(ctx.emu, KEY), scope: SCOPE }, { modelName: MODEL, directory: tmp.dir });
    await assert.rejects(started.outcome, IntegrityError);
    assert.deepEqual(readdirSync(tmp.dir), []);
    assert.deepEqual(pendingDownloads(services), [], 'the record of a download that cannot be resumed was kept');
    assert.deepEqual(recorded, []);
  });
});
