// A model record may carry several identifiers (issue 36, item 8): a short name, a resource name (`models/…`,
// `tunedModels/…`), a long provider id. The list keeps them all, the Models view shows the shortest readable one (the
// others in the tooltip), and a name asked for matches any of them: a finished job finds its made model in the list
// whichever identifier the list leads with.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { isTerminal } from '../../src/api/types';
import { identifiersOf } from '../../src/api/modelIdentifiers';
import { readModelsByProfile } from '../../src/api/modelListReader';
import { partLines } from '../../src/api/profileWords';
import { checkServiceProfile } from '../../src/api/profileFormat';
import type { ModelInfo } from '../../src/api/types';
import { shownNames } from '../../src/features/models/modelLabel';
import { findMadeModel } from '../../src/jobs/madeModel';
import { writePdf } from '../service/fixtures';
import { clientFor, tempDir, until, useEmulator } from './helpers';
import { readModelList } from './readers';

const arn = (id: string) => `arn:aws:bedrock:us-east-1::foundation-model/${id}`;
const CUSTOM_ARN = 'arn:aws:bedrock:us-east-1:123456789012:custom-model/amazon.titan-text-express-v1:0:8k/a1b2c3d4e5f6';
/** Bedrock's ListFoundationModels beside ListCustomModels: an ARN leads, the short id or name beside it. */
const BEDROCK = {
  modelSummaries: [
    { modelArn: arn('amazon.titan-text-express-v1'), modelId: 'amazon.titan-text-express-v1', providerName: 'Amazon' },
    { modelArn: arn('meta.llama3-8b-instruct-v1:0'), modelId: 'meta.llama3-8b-instruct-v1:0', providerName: 'Meta' },
  ],
  customModelSummaries: [
    {
      modelArn: CUSTOM_ARN,
      modelName: 'acme-support',
      baseModelArn: arn('amazon.titan-text-express-v1'),
      baseModelName: 'Titan Text G1 - Express',
      creationTime: '2026-11-20T10:00:00Z',
    },
  ],
};

/** Gemini's models.list beside tunedModels.list: a resource name leads, a display name beside a tuned one. */
const GOOGLE = {
  models: [
    { name: 'models/oss-reasoner-8b', baseModelId: 'oss-reasoner-8b', version: '001', displayName: 'Oss Reasoner 8b' },
    { name: 'models/oss-reasoner-70b', baseModelId: 'oss-reasoner-70b', version: '001', displayName: 'Oss Reasoner 70b' },
  ],
  tunedModels: [
    { name: 'tunedModels/support-bot-0a1b2', displayName: 'support-bot', baseModel: 'models/oss-reasoner-8b', state: 'ACTIVE' },
  ],
};

const OPENAI = {
  object: 'list',
  data: [
    { id: 'oss-reasoner-8b', object: 'model', created: 1_700_000_000, owned_by: 'system' },
    { id: 'ft:oss-reasoner-8b:seeded:0a1b2c3d', object: 'model', created: 1_764_200_000, owned_by: 'org-7yQ2mX4b' },
  ],
};

const others = (models: ModelInfo[]) => Object.fromEntries(models.map((m) => [m.name, m.otherNames ?? []]));

describe('model identifiers: the list keeps every identifier of a record', () => {
  it('Bedrock-like: the ARN leads, the model id or name is kept beside it (never the provider, never the parent)', () => {
    const { models } = readModelList(BEDROCK);
    assert.deepEqual(others(models), {
      [arn('amazon.titan-text-express-v1')]: ['amazon.titan-text-express-v1'],
      [arn('meta.llama3-8b-instruct-v1:0')]: ['meta.llama3-8b-instruct-v1:0'],
      [CUSTOM_ARN]: ['acme-support'],
    });
  });

  it('Gemini-like: a tuned model keeps its display name; a family id or human text is no identifier', () => {
    const { models } = readModelList(GOOGLE);
    assert.deepEqual(others(models), {
      'models/oss-reasoner-8b': [],
      'models/oss-reasoner-70b': [],
      'tunedModels/support-bot-0a1b2': ['support-bot'],
    });
  });

  it('OpenAI-like: an owner beside the id is not another name of the model', () => {
    assert.deepEqual(others(readModelList(OPENAI).models), { 'oss-reasoner-8b': [], 'ft:oss-reasoner-8b:seeded:0a1b2c3d': [] });
  });

  it('the profile says where they are, reads them from the next answer, and says so in words', () => {
    const { profile } = readModelList(BEDROCK);
    assert.ok(profile);
    assert.deepEqual(
      profile.lists.map((l) => l.otherNamesFrom),
      [['modelId'], ['modelName']],
    );
    const next = {
      ...BEDROCK,
      customModelSummaries: [
        ...BEDROCK.customModelSummaries,
        { ...BEDROCK.customModelSummaries[0]!, modelArn: `${CUSTOM_ARN}9`, modelName: 'acme-triage' },
      ],
    };
    const read = readModelsByProfile(next, profile);
    assert.ok(read);
    assert.deepEqual(read.at(-1)?.otherNames, ['acme-triage']);
    assert.match(partLines('modelList', profile).join('\n'), /customModelSummaries\[\]\.modelArn.*also named by modelName/);
  });

  it('a hand-written profile may name them; one that names them wrongly is refused, saying why', () => {
    const setting = { modelList: { lists: [{ names: 'data[].ref', otherNamesFrom: ['short', 'meta.alias'] }] } };
    const checked = checkServiceProfile(setting, 'setting');
    assert.ok(!('problem' in checked), JSON.stringify(checked));
    const models = readModelsByProfile(
      { data: [{ ref: 'providers/acme/models/m-91f2', short: 'support-bot', meta: { alias: 'support' } }] },
      checked.value.modelList!,
    );
    assert.deepEqual(models?.[0]?.otherNames, ['support-bot', 'support']);
    const bad = checkServiceProfile({ modelList: { lists: [{ names: 'data[].ref', otherNamesFrom: 'short' }] } }, 'setting');
    assert.ok('problem' in bad && /otherNamesFrom/.test(bad.problem), JSON.stringify(bad));
  });
});

describe('model identifiers: the Models view shows the shortest readable one', () => {
  const model = (name: string, ...otherNames: string[]) => ({ name, ...(otherNames.length ? { otherNames } : {}) });

  it('a short name over an ARN or a resource name; an opaque id is not readable', () => {
    assert.deepEqual(
      shownNames([
        model(arn('amazon.titan-text-express-v1'), 'amazon.titan-text-express-v1'),
        model('accounts/emulator/models/m-3f9a1c2e', 'support-bot'),
        model('tunedModels/support-bot-0a1b2', 'support-bot-0a1b2'),
        model('oss-reasoner-8b'),
      ]),
      ['amazon.titan-text-express-v1', 'support-bot', 'support-bot-0a1b2', 'oss-reasoner-8b'],
    );
  });

  it('as before without other names: a resource name shows its id unless another model’s is the same', () => {
    assert.deepEqual(shownNames([model('models/x-1'), model('tunedModels/x-1'), model('models/y-2')]), [
      'models/x-1',
      'tunedModels/x-1',
      'y-2',
    ]);
  });

  it('a name two models share is shown for neither', () => {
    assert.deepEqual(shownNames([model('acme/models/a-1', 'bot'), model('acme/models/b-2', 'bot')]), ['a-1', 'b-2']);
  });
});

describe('model identifiers: a name asked for matches any of them', () => {
  const listed = (name: string, otherNames: string[], kind: ModelInfo['kind'] = 'custom'): ModelInfo => ({
    name,
    kind,
    otherNames,
    raw: name,
  });
  const ask = (requested: string, models: ModelInfo[], claimed: string[] = [], baseModel = 'oss-reasoner-8b') =>
    findMadeModel({ requested, baseModel, claimed: new Set(claimed) }, models);

  it('the made model is found by another identifier, and named as the list leads with it', () => {
    const made = listed('accounts/emulator/models/m-3f9a1c2e', ['support-bot']);
    assert.deepEqual(identifiersOf(made), ['accounts/emulator/models/m-3f9a1c2e', 'support-bot']);
    assert.equal(ask('support-bot', [listed('oss-reasoner-8b', [], 'base'), made]), made.name);
    // A name the service derived from the one asked for, as another identifier.
    assert.equal(ask('support-bot', [listed('mdl-0042', ['support-bot-20261126'])]), 'mdl-0042');
  });

  it('never a base model, the job’s base or a model another job made, by whichever identifier', () => {
    assert.equal(ask('support-bot', [listed('m-1', ['support-bot'], 'base')]), undefined);
    assert.equal(ask('support-bot', [listed('m-1', ['support-bot'])], ['m-1']), undefined);
    assert.equal(ask('support-bot', [listed('m-1', ['support-bot'])], ['support-bot']), undefined);
    assert.equal(ask('reasoner', [listed('m-1', ['acme/reasoner'])], [], 'acme/reasoner'), undefined);
  });
});

describe('model identifiers: the journey, a finished job finds its made model whichever identifier the list leads with', function () {
  this.timeout(30_000);
  const ctx = useEmulator({ finetuneDurationMs: 300 });
  const tmp = tempDir('hr-identifiers-');
  const KEYED = 'resource-names-key';

  it('the list leads with a resource name, the job names its model by its own name: matched, shown by the short one', async () => {
    ctx.emu.setKey(KEYED, { models: ['oss-reasoner-8b'], modelListShape: 'resource-names' });
    const client = clientFor(ctx.emu, KEYED);
    const file = path.join(tmp.dir, 'manual.pdf');
    await writePdf(file, ['The device charges in two hours.']);
    const started = await client.startFinetune({
      files: [file],
      numQs: 2,
      mode: 'pretraining',
      modelName: 'support-bot',
      modelType: 'oss-reasoner-8b',
      useCase: 'identifiers',
    });
    const final = await until(async () => {
      const s = await client.getFinetuneStatus(started.jobId);
      return isTerminal(s.state) ? s : undefined;
    }, 15_000);
    assert.equal(final.state, 'completed');
    const listed = await client.listModels();
    assert.ok(!listed.some((m) => m.name === 'support-bot'), `the list leads with another identifier: ${listed.map((m) => m.name).join()}`);
    const found = findMadeModel({ requested: 'support-bot', baseModel: 'oss-reasoner-8b', claimed: new Set() }, listed);
    const model = listed.find((m) => m.name === found);
    assert.ok(model, `no listed model matched: ${JSON.stringify(listed.map((m) => identifiersOf(m)))}`);
    assert.ok(identifiersOf(model).includes(final.modelName ?? 'support-bot'), JSON.stringify(model));
    assert.equal(shownNames(listed)[listed.indexOf(model)], 'support-bot');
  });
});
