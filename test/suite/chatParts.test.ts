// Our language-model provider reports a part per event of the service's stream, not per read of the socket. VS Code
// passes a provider's parts on to the caller once 31 have gathered or none came for 30 ms (seen in 1.104 and 1.139):
// parts of several tokens each, which a fast stream's reads coalesce into, held the first token back until the whole
// answer had come (test/bench figure 9, PERFORMANCE.md).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CHAT_VENDOR } from '../../src/contributions';
import { tokenize } from '../service/inference';
import { waitFor } from './helpers';
import { EMULATOR_SETTINGS, useRig } from './rig';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();

describe(`models in vscode.lm: parts ${EVERY_HOST_TAG}`, () => {
  afterEach(() => rig.emu.configure({ tokenIntervalMs: EMULATOR_SETTINGS.tokenIntervalMs, streamChunkBytes: 0 }));

  it('a part per event of the stream, even when one read of the socket carries the whole answer', async () => {
    await rig.useKey('demo-key');
    // The whole stream in one write: every event arrives in one read.
    rig.emu.configure({ tokenIntervalMs: 0, streamChunkBytes: 65_536 });
    const model = await waitFor(
      'the model oss-reasoner-8b',
      async () => (await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR, id: 'oss-reasoner-8b' }))[0],
    );
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('What does a cache buy you?')], {});
    const pieces: string[] = [];
    for await (const piece of response.text) pieces.push(piece);
    // The emulator writes one token per event.
    const tokens = tokenize(pieces.join(''));
    assert.ok(tokens.length > 10, `a short answer: ${tokens.length} tokens`);
    assert.deepEqual(pieces, tokens, `${pieces.length} parts for ${tokens.length} events`);
  });
});
