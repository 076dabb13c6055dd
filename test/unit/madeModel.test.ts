// Which listed model a finetune made, when its status cannot tell (issue 27): the name asked for, or one the service
// derived from it; never an unrelated model, a family name, a base model or a name another job already made.
import { strict as assert } from 'node:assert';
import type { ModelInfo } from '../../src/api/types';
import { findMadeModel } from '../../src/jobs/madeModel';

const listed = (...names: (string | [string, ModelInfo['kind']])[]): ModelInfo[] =>
  names.map((n) => (typeof n === 'string' ? { name: n, kind: 'unknown', raw: n } : { name: n[0], kind: n[1], raw: n[0] }));
const ask = (requested: string, models: ModelInfo[], extra: { baseModel?: string; claimed?: string[] } = {}) =>
  findMadeModel({ requested, baseModel: extra.baseModel ?? 'oss-reasoner-8b', claimed: new Set(extra.claimed ?? []) }, models);

describe('made model matcher', () => {
  it('takes the exact name asked for', () => {
    assert.equal(ask('support-bot', listed('oss-reasoner-8b', 'support-bot')), 'support-bot');
    assert.equal(ask('support-bot', listed('oss-reasoner-8b')), undefined);
  });

  it('takes a name the service derived: a namespace before it, an id, date or version after it', () => {
    assert.equal(ask('support-bot', listed('ft:oss-reasoner-8b:support-bot:3f9a1c2e')), 'ft:oss-reasoner-8b:support-bot:3f9a1c2e');
    assert.equal(ask('support-bot', listed('ft:oss-reasoner-8b:support-bot:abcdefab')), 'ft:oss-reasoner-8b:support-bot:abcdefab');
    assert.equal(ask('support-bot', listed('acme/support-bot')), 'acme/support-bot');
    assert.equal(ask('support-bot', listed('accounts/acme/models/support-bot')), 'accounts/acme/models/support-bot');
    assert.equal(ask('support-bot', listed('support-bot-20261126')), 'support-bot-20261126');
    assert.equal(ask('support-bot', listed('support-bot@v2')), 'support-bot@v2');
    assert.equal(ask('support-bot', listed('acme/support-bot:ckpt-1200')), 'acme/support-bot:ckpt-1200');
  });

  it('prefers the exact name to a derived one', () => {
    assert.equal(ask('support-bot', listed('support-bot-20261126', 'support-bot')), 'support-bot');
  });

  it('refuses unrelated names and names that only share a part', () => {
    assert.equal(ask('support-bot', listed('sales-bot', 'support', 'bot')), undefined);
    assert.equal(ask('support-bot', listed('support-bot2', 'my-support-bot', 'support-botany-1', 'xsupport-bot:1')), undefined);
    assert.equal(ask('Support-Bot', listed('support-bot')), undefined, 'names are case-sensitive');
  });

  it('refuses family names: a shorter name the one asked for starts with, or a word added that names no version', () => {
    assert.equal(ask('oss-reasoner-8b-support', listed('oss-reasoner-8b', 'oss-reasoner')), undefined);
    assert.equal(ask('support', listed('support-bot', 'support-large', 'support.instruct')), undefined);
  });

  it('refuses base models, the base model of the job, and names another job made', () => {
    assert.equal(ask('oss-reasoner', listed(['oss-reasoner-70b', 'base'])), undefined);
    assert.equal(ask('reasoner', listed('acme/reasoner'), { baseModel: 'acme/reasoner' }), undefined);
    assert.equal(ask('support-bot', listed('support-bot-20261126'), { claimed: ['support-bot-20261126'] }), undefined);
    assert.equal(ask('support-bot', listed(['support-bot', 'base'])), undefined, 'even by the exact name');
  });

  it('refuses to choose between two derived names', () => {
    assert.equal(ask('support-bot', listed('support-bot-20261125', 'support-bot-20261126')), undefined);
  });
});
