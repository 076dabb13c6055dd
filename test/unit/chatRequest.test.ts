// How a Chat conversation becomes the service's `prompt` and `query_only`, which model options a request takes, and
// the token estimate VS Code is given.
import * as assert from 'node:assert/strict';
import { ChatRequestProblem, estimateTokens, knobsFor, renderConversation } from '../../src/features/chat/chatRequest';

const SETTINGS = { temperature: 0.7, sequentialBudget: 8, parallelBudget: 1, useRag: false };

describe('chat requests', () => {
  it('sends a single question as it is, in prompt and query_only alike (the playground sends the same)', () => {
    assert.deepEqual(renderConversation([{ role: 'user', text: 'What is a cache?' }]), {
      prompt: 'What is a cache?',
      queryOnly: 'What is a cache?',
    });
  });

  it('writes a conversation into the prompt as a transcript; the last user message is the query', () => {
    const rendered = renderConversation([
      { role: 'user', text: 'What is a cache?' },
      { role: 'assistant', text: 'A fast copy.' },
      { role: 'user', text: '' },
      { role: 'user', text: 'And its cost?' },
      { role: 'assistant', text: '' },
    ]);
    assert.equal(rendered.prompt, 'User: What is a cache?\n\nAssistant: A fast copy.\n\nUser: And its cost?');
    assert.equal(rendered.queryOnly, 'And its cost?');
  });

  it('refuses a conversation without a question, in words', () => {
    assert.throws(() => renderConversation([{ role: 'assistant', text: 'Hello' }]), ChatRequestProblem);
    assert.throws(() => renderConversation([{ role: 'user', text: '  ' }]), /no question/);
  });

  it('takes temperature, budgets and RAG from the model options, else from the settings', () => {
    assert.deepEqual(knobsFor(undefined, SETTINGS), SETTINGS);
    assert.deepEqual(knobsFor({ temperature: 0, sequentialBudget: 3, parallelBudget: 2, useRag: true, other: 'ignored' }, SETTINGS), {
      temperature: 0,
      sequentialBudget: 3,
      parallelBudget: 2,
      useRag: true,
    });
    assert.deepEqual(knobsFor({ temperature: null }, SETTINGS), SETTINGS);
  });

  it('refuses a model option of the wrong type, naming it', () => {
    assert.throws(() => knobsFor({ temperature: 'hot' }, SETTINGS), /temperature must be a number/);
    assert.throws(() => knobsFor({ sequentialBudget: 1.5 }, SETTINGS), /sequentialBudget must be a whole number/);
    assert.throws(() => knobsFor({ parallelBudget: 0 }, SETTINGS), /parallelBudget/);
    assert.throws(() => knobsFor({ useRag: 'yes' }, SETTINGS), /useRag must be true or false/);
  });

  it('estimates about four characters a token, one a character for CJK', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('x'.repeat(400)), 100);
    assert.equal(estimateTokens('简体中文'), 4);
    assert.equal(estimateTokens('简体 text'), 2 + 2);
  });
});
