// The Models view when the service cannot be reached: error rows whose click is the fix.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ErrorNode } from '../../src/views/modelsTree';
import { waitFor } from './helpers';
import { useRig } from './rig';

const rig = useRig();

/** Nothing listens on the discard port: connections are refused at once. */
const CLOSED_PORT_URL = 'http://127.0.0.1:9';

describe('models view', () => {
  afterEach(async () => {
    await rig.setSetting('baseUrl', rig.emu.url);
    await rig.clearKey();
  });

  it('answers with the newest list when a refresh starts while another is loading', async () => {
    await rig.useKey('demo-key');
    await rig.api.models.refresh();
    const first = rig.api.models.refresh();
    const children = rig.api.models.getChildren();
    const second = rig.api.models.refresh();
    const roots = await children;
    await Promise.all([first, second]);
    assert.ok(roots.length > 0, 'getChildren answered with an empty list while the newer load ran');
    assert.ok(roots.every((n) => n.type === 'group'));
  });

  it('shows Retry and Configure Service URL rows when the service is unreachable', async function () {
    // The client retries a refused connection four times with backoff (about 4-8 s in all) before giving up.
    this.timeout(40_000);
    await rig.useKey('demo-key');
    await rig.setSetting('baseUrl', CLOSED_PORT_URL);
    await vscode.commands.executeCommand('hostedReasoning.refreshModels');

    let roots: Awaited<ReturnType<typeof rig.api.models.getChildren>> = [];
    const errors = await waitFor(
      'error rows in the Models view',
      async () => {
        roots = await rig.api.models.getChildren();
        return roots.length > 0 && roots.every((n) => n.type === 'error') ? (roots as ErrorNode[]) : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200, describe: () => roots },
    );

    assert.deepEqual(
      errors.map((e) => [e.command.command, e.command.title]),
      [
        ['hostedReasoning.refreshModels', 'Retry'],
        ['hostedReasoning.configureBaseUrl', 'Configure Service URL'],
      ],
    );
    for (const node of errors) {
      assert.match(node.detail, /127\.0\.0\.1:9/, 'the row does not say which service failed');
      const item = rig.api.models.getTreeItem(node);
      assert.deepEqual(item.command, node.command, 'clicking the row does not run its fix');
    }
    // The Jobs view's "Cannot reach the service" welcome follows this context key; it cannot be read back, so the
    // rows above are the observable part.
  });
});
