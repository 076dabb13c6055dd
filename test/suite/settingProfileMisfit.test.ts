// A profile from the application setting hostedReasoning.serviceProfile that the model list no longer fits: the list
// is read by the profile inferred from it, the person is told once in the log, and nothing is written again at each
// read (it was inferred, logged and kept again at every list read). In-editor: ServiceProfiles reads the setting
// through `vscode`. The client's part is done here as the client does it (client.ts: readAnswer with MODEL_LIST, then the book).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readAnswer } from '../../src/api/answerReading';
import { MODEL_LIST } from '../../src/api/modelListReading';
import type { ProfileBook } from '../../src/api/profileBook';
import { SECTION } from '../../src/connection/config';
import { PROFILE_SETTING, ServiceProfiles } from '../../src/connection/serviceProfiles';
import type { Log } from '../../src/log';
import { SERVICE_PROFILES_KEY } from '../../src/storageKeys';
import { countingState } from './helpers';

const ORIGIN = 'https://profile-misfit.example';
const BODY = { data: [{ id: 'alpha-base' }, { id: 'beta-base' }] };
/** A profile the list above does not fit: its names are somewhere the answer has nothing. */
const STALE = { modelList: { lists: [{ names: 'results.items[].model.id' }] } };

/** One list read as the client does it: by the book's profile, the reading reported back. */
function listOnce(book: ProfileBook): string[] {
  const { value: models, profile, change } = readAnswer(MODEL_LIST, BODY, book.profile('modelList'), undefined);
  if (profile) book.learned('modelList', { profile, change, body: BODY, samples: models.slice(0, 3).map((m) => m.name) });
  return models.map((m) => m.name);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('a service profile from the setting that the model list no longer fits', () => {
  const config = () => vscode.workspace.getConfiguration(SECTION);
  let logged: string[];
  const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(`warn: ${m}`) } as unknown as Log;

  beforeEach(async () => {
    logged = [];
    await config().update(PROFILE_SETTING, { [ORIGIN]: STALE }, vscode.ConfigurationTarget.Global);
  });
  afterEach(() => config().update(PROFILE_SETTING, undefined, vscode.ConfigurationTarget.Global));

  it('reads by the inferred profile, says so once, and keeps it once, however many times the list is read', async () => {
    const state = countingState();
    const profiles = new ServiceProfiles(state, log);
    const book = profiles.bookFor(ORIGIN);
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(listOnce(book), ['alpha-base', 'beta-base']);
      await settle();
    }
    profiles.dispose();
    assert.equal(logged.length, 1, logged.join('\n'));
    assert.match(logged[0]!, /no longer fits how it was read/);
    assert.equal(book.profile('modelList')?.by, 'inferred', 'the inferred profile is the one the list is read by now');
    assert.equal(state.writes, 1, 'kept once, not at every read');
  });

  it('does not write again what was kept when it is unchanged (another origin kept after it)', async () => {
    // What the first read infers, kept before another origin's profile (keeping re-inserted it last: a write).
    const inferred = readAnswer(MODEL_LIST, BODY, undefined, undefined).profile!;
    const state = countingState({
      [SERVICE_PROFILES_KEY]: { [ORIGIN]: { modelList: inferred }, 'https://other.example': { modelList: inferred } },
    });
    const profiles = new ServiceProfiles(state, log);
    const book = profiles.bookFor(ORIGIN);
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(listOnce(book), ['alpha-base', 'beta-base']);
      await settle();
    }
    profiles.dispose();
    assert.equal(state.writes, 0);
    assert.equal(logged.length, 1, logged.join('\n'));
  });

  it('reads by the setting again once it is changed to one that fits', async () => {
    const state = countingState();
    const profiles = new ServiceProfiles(state, log);
    const book = profiles.bookFor(ORIGIN);
    // Twice: the profile inferred instead is kept, and said, once a second list agrees (inferredKeeping.ts).
    listOnce(book);
    listOnce(book);
    assert.equal(book.profile('modelList')?.by, 'inferred');
    await config().update(
      PROFILE_SETTING,
      { [ORIGIN]: { modelList: { lists: [{ names: 'data[].id' }] } } },
      vscode.ConfigurationTarget.Global,
    );
    assert.deepEqual(listOnce(book), ['alpha-base', 'beta-base']);
    assert.equal(book.profile('modelList')?.by, 'setting');
    profiles.dispose();
    assert.equal(logged.length, 1, logged.join('\n'));
  });
});
