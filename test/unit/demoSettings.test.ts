// The demo's Chat opens ready for a person without Copilot: the settings `npm start` writes are the ones the UI tests
// run with (test/e2e/run.ts), whose Chat steps check Ask mode, one of our models picked and @hosted answering.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHAT_WITHOUT_COPILOT, writeDemoSettings } from '../../scripts/demoSettings';

describe('the demo profile', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hr-demo-settings-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("opens Chat in Ask mode, as the UI tests' profile does: Agent mode off", async () => {
    await writeDemoSettings(dir, 'http://127.0.0.1:1');
    const settings = JSON.parse(fs.readFileSync(path.join(dir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    for (const [key, value] of Object.entries(CHAT_WITHOUT_COPILOT)) assert.deepEqual(settings[key], value, key);
    assert.equal(settings['chat.agent.enabled'], false);
    assert.equal(settings['hostedReasoning.baseUrl'], 'http://127.0.0.1:1');
  });
});
