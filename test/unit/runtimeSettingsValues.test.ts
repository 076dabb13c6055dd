// The local runtime's settings as the runtime gets them: defaults, the declared ranges, and the automatic memory limit.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { localRuntimeSettingsFrom } from '../../src/local/runtimeSettingsValues';

const GB = 1024 * 1024 * 1024;

interface Setting {
  default: unknown;
  minimum?: number;
  maximum?: number;
}
const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Setting> } };
};
const declared = (key: string): Setting => manifest.contributes.configuration.properties[`hostedReasoning.local.${key}`]!;

describe('local runtime settings', () => {
  it('uses the defaults package.json declares, and three quarters of the memory for a limit of 0', () => {
    const settings = localRuntimeSettingsFrom(() => undefined, 16 * GB);
    for (const key of ['threads', 'contextSize', 'gpu', 'idleSeconds', 'loadTimeoutSeconds'] as const) {
      assert.equal(settings[key], declared(key).default, key);
    }
    assert.equal(declared('memoryLimitMB').default, 0);
    assert.equal(settings.memoryLimitMB, 12 * 1024);
  });

  it('clamps each number to the range package.json declares, and reads anything but "off" as auto', () => {
    const low = localRuntimeSettingsFrom(() => -1e9, 8 * GB);
    const high = localRuntimeSettingsFrom(() => 1e12, 8 * GB);
    for (const key of ['threads', 'contextSize', 'idleSeconds', 'loadTimeoutSeconds'] as const) {
      assert.equal(low[key], declared(key).minimum, `${key} low`);
      assert.equal(high[key], declared(key).maximum, `${key} high`);
    }
    assert.equal(high.memoryLimitMB, 1e12);
    assert.equal(localRuntimeSettingsFrom((k) => (k === 'gpu' ? 'off' : undefined), GB).gpu, 'off');
    assert.equal(localRuntimeSettingsFrom((k) => (k === 'gpu' ? 'cuda' : undefined), GB).gpu, 'auto');
    assert.equal(localRuntimeSettingsFrom((k) => (k === 'threads' ? 'many' : undefined), GB).threads, 0);
  });
});
