// What package.json promises about trust: a workspace can set none of the settings that steer where a request or a
// file goes, the rest it may set are ignored in Restricted Mode, and the extension says what works in Restricted Mode
// and in virtual workspaces.
import { strict as assert } from 'node:assert';
import { localizedManifest } from './localizedManifest';
import { ignoredInRestrictedMode, settingsNamedIn } from './settingLists';

interface Setting {
  scope?: string;
}
interface Manifest {
  capabilities?: {
    untrustedWorkspaces?: { supported: unknown; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces?: { supported: unknown; description?: string };
  };
  contributes: { configuration: { properties: Record<string, Setting> } };
}
const manifest = localizedManifest<Manifest>();
const settings = manifest.contributes.configuration.properties;
/** Settings that say where a request goes or where a file is written. */
const STEERING = ['hostedReasoning.baseUrl', 'hostedReasoning.downloadFolder'];
/** Scopes a workspace's .vscode/settings.json can set. */
const WORKSPACE_SCOPES = new Set([undefined, 'window', 'resource', 'language-overridable', 'machine-overridable']);

describe('the manifest’s trust promises', () => {
  it('lets no workspace set the service URL or the download folder', () => {
    for (const name of STEERING) {
      assert.ok(['application', 'machine'].includes(settings[name]?.scope ?? ''), `${name}: scope ${settings[name]?.scope}`);
    }
  });

  it('ignores in Restricted Mode every other setting a workspace may set', () => {
    const settable = Object.keys(settings).filter((name) => WORKSPACE_SCOPES.has(settings[name]?.scope));
    assert.ok(settable.length > 0);
    assert.deepEqual([...(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? [])].sort(), settable.sort());
  });

  it('says in VS Code’s trust text which settings a workspace sets in vain in Restricted Mode: restrictedConfigurations', () => {
    const list = ignoredInRestrictedMode(manifest.capabilities?.untrustedWorkspaces?.description ?? '');
    assert.ok(list, 'the trust text has no "own values of … are ignored" sentence');
    assert.deepEqual(
      settingsNamedIn(list, Object.keys(settings)).sort(),
      [...(manifest.capabilities?.untrustedWorkspaces?.restrictedConfigurations ?? [])].sort(),
    );
  });

  it('declares limited support for untrusted and virtual workspaces, with what works', () => {
    assert.equal(manifest.capabilities?.untrustedWorkspaces?.supported, 'limited');
    assert.equal(manifest.capabilities?.virtualWorkspaces?.supported, 'limited');
    assert.match(manifest.capabilities?.untrustedWorkspaces?.description ?? '', /playground/);
    // What waits for trust: a workspace's model file handed to native code.
    assert.match(
      manifest.capabilities?.untrustedWorkspaces?.description ?? '',
      /Run Locally waits for trust on a \.gguf from the workspace/,
    );
    assert.match(manifest.capabilities?.virtualWorkspaces?.description ?? '', /playground/);
  });
});
