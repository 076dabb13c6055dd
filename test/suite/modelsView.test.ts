// The Models view when the service cannot be reached: error rows whose click is the fix.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { modelNode, waitFor } from './helpers';
import { useRig } from './rig';
import { COMMANDS } from '../../src/contributions';

const rig = useRig();

/** Nothing listens on the discard port: connections are refused at once. */
const CLOSED_PORT_URL = 'http://127.0.0.1:9';

describe('models view', () => {
  afterEach(async () => {
    rig.emu.faults.clear();
    await rig.setSetting('baseUrl', rig.emu.url);
    await rig.clearKey();
  });

  it('never shows the previous list while a refresh loads, and asks the view to read the newest list once it is in', async () => {
    await rig.useKey('demo-key');
    // The key change reloads the view in the background: wait for that list first.
    await waitFor('the list of the new key', async () => ((await rig.api.models.getChildren()).length > 0 ? true : undefined));
    const first = rig.api.models.refresh();
    const during = await rig.api.models.getChildren();
    let changes = 0;
    const listening = rig.api.models.onDidChangeTreeData(() => changes++);
    try {
      const second = rig.api.models.refresh();
      await Promise.all([first, second]);
    } finally {
      listening.dispose();
    }
    assert.deepEqual(during, [], 'the rows of the previous list were shown while the new one loaded');
    assert.ok(changes > 0, 'the view was not told that the new list is in');
    // (A late event of the key change may start one more load: the rows come once the newest list is in.)
    const roots = await waitFor('the newest list', async () => {
      const r = await rig.api.models.getChildren();
      return r.length > 0 ? r : undefined;
    });
    assert.ok(
      roots.every((n) => n.type === 'group'),
      `after the refresh: ${roots.map((n) => n.type).join(', ')}`,
    );
  });

  it('shows Retry and Configure Service URL rows when the service is unreachable', async function () {
    // Listing for the view is interactive: a refused connection fails at once, without the 4-8 s of retries a
    // background call would make (test/unit/faults.test.ts, "a refused connection").
    await rig.useKey('demo-key');
    await rig.setSetting('baseUrl', CLOSED_PORT_URL);
    // A key is kept per service: the closed port's service gets one of its own (nothing can check it there).
    const origin = new URL(CLOSED_PORT_URL).origin;
    await rig.api.services.session.keys.set(origin, 'demo-key');
    await vscode.commands.executeCommand(COMMANDS.refreshModels);

    let roots: Awaited<ReturnType<typeof rig.api.models.getChildren>> = [];
    const errors = await waitFor(
      'error rows in the Models view',
      async () => {
        roots = await rig.api.models.getChildren();
        return roots.length > 0 && roots.every((n) => n.type === 'error') ? roots : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 200, describe: () => roots },
    );

    assert.deepEqual(
      errors.map((e) => [e.command.command, e.command.title]),
      [
        [COMMANDS.refreshModels, 'Retry'],
        [COMMANDS.configureBaseUrl, 'Configure Service URL'],
      ],
    );
    for (const node of errors) {
      assert.match(node.detail, /127\.0\.0\.1:9/, 'the row does not say which service failed');
      const item = rig.api.models.getTreeItem(node);
      assert.deepEqual(item.command, node.command, 'clicking the row does not run its fix');
    }
    // The Jobs view's "Cannot reach the service" welcome follows this context key; it cannot be read back, so the
    // rows above are the observable part.
    await rig.api.services.session.keys.clear(origin);
  });

  it('offers Retry and the log when the service keeps failing', async function () {
    // The client retries a 5xx on a GET four times with backoff before giving up.
    this.timeout(40_000);
    await rig.useKey('demo-key');
    rig.emu.faults.add({ path: '/cr/get_allowed_models', kind: 'status', status: 500, times: 100 });
    await rig.api.models.refresh();
    // (A late event of the key change may start one more load: the rows come once the newest answer is in.)
    const roots = await waitFor(
      'error rows',
      async () => {
        const r = await rig.api.models.getChildren();
        return r.length > 0 ? r : undefined;
      },
      { timeoutMs: 30_000 },
    );
    rig.emu.faults.clear();
    assert.deepEqual(
      roots.map((n) => n.type === 'error' && [n.label, n.command.command]),
      [
        ['The service failed — retry', 'hostedReasoning.refreshModels'],
        ['See the log for what the service said', 'hostedReasoning.showLog'],
      ],
    );
  });

  it('shows an accuracy without counts when the service gave none (a total of 0)', async () => {
    await rig.useKey('demo-key');
    const scope = await rig.api.services.session.scope();
    assert.ok(scope);
    const model = 'oss-reasoner-8b';
    const now = Date.now();
    const job: JobRecord = {
      id: 'eval-total-0',
      kind: 'evaluation',
      scope,
      state: 'completed',
      createdAt: now,
      updatedAt: now,
      finishedAt: now,
      modelName: model,
      datasetName: 'demo-qa',
      result: { datasetName: 'demo-qa', modelName: model, correct: 0, total: 0, accuracy: 0.84 },
    };
    await rig.api.services.jobs.put(job);
    try {
      const node = await waitFor('the model row with the evaluation', async () => {
        const n = await modelNode(rig.api, model);
        return n?.latest?.id === job.id ? n : undefined;
      });
      assert.equal(rig.api.models.getTreeItem(node).description, '84.0%');
    } finally {
      await rig.api.services.jobs.remove(scope, [`evaluation:${job.id}`]);
    }
  });
});
