// The model list's kinds and parents as real services write them (issue 27, "build for the principle, not for the
// cases"): a field that says a kind for some models and names an owner for others is still read, and an answer that
// plainly holds names is never read as []; a parent is taken only when it names a model the answer lists (never a
// family id or a version tag); a group under a key saying no kind, beside one saying custom, is base.
import { strict as assert } from 'node:assert';
import { ContractError } from '../../src/api/errors';
import { modelListChoices } from '../../src/api/modelListInference';
import { readModelsByProfile } from '../../src/api/modelListReader';
import { readModelList } from './readers';

/** name:kind<parent, in the answer's order. */
const read = (body: unknown) =>
  readModelList(body).models.map((m) => `${m.name}:${m.kind}${m.baseModel !== undefined ? `<${m.baseModel}` : ''}`);

/** OpenAI's GET /v1/models: `owned_by` is "system" for the service's models, the organization for tuned ones. */
const OPENAI = {
  object: 'list',
  data: [
    { id: 'oss-reasoner-8b', object: 'model', created: 1_700_000_000, owned_by: 'system' },
    { id: 'oss-reasoner-70b', object: 'model', created: 1_700_000_000, owned_by: 'system' },
    { id: 'ft:oss-reasoner-8b:seeded:0a1b2c3d', object: 'model', created: 1_764_200_000, owned_by: 'org-7yQ2mX4b' },
  ],
};

/** Gemini's models.list beside tunedModels.list, as one answer. */
const GOOGLE = {
  models: [
    {
      name: 'models/oss-reasoner-8b',
      baseModelId: 'oss-reasoner-8b',
      version: '001',
      displayName: 'Oss Reasoner 8b',
      description: 'Oss Reasoner 8b, served here',
      inputTokenLimit: 32768,
      outputTokenLimit: 8192,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'createTunedModel'],
    },
    {
      name: 'models/oss-reasoner-70b',
      baseModelId: 'oss-reasoner-70b',
      version: '001',
      displayName: 'Oss Reasoner 70b',
      description: 'Oss Reasoner 70b, served here',
      inputTokenLimit: 32768,
      outputTokenLimit: 8192,
      supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
    },
  ],
  tunedModels: [
    {
      name: 'tunedModels/seeded-0a1b2',
      displayName: 'seeded-0a1b2',
      baseModel: 'models/oss-reasoner-8b',
      state: 'ACTIVE',
      createTime: '2026-11-27T03:00:00.000Z',
      updateTime: '2026-11-27T03:00:00.000Z',
    },
  ],
};

describe('model list: a kind field that also names owners', () => {
  it('OpenAI-like: owned_by "system" is base, the organization says nothing, the ft: name says custom', () => {
    assert.deepEqual(read(OPENAI), ['oss-reasoner-8b:base', 'oss-reasoner-70b:base', 'ft:oss-reasoner-8b:seeded:0a1b2c3d:custom']);
    // The profile reads the very answer it came from, strictly too (the value it cannot say a kind of is mapped).
    const { profile } = readModelList(OPENAI);
    assert.ok(profile);
    assert.equal(readModelsByProfile(OPENAI, profile)?.length, 3);
  });

  it('a catalogue whose provider is "official" or a team, the team’s model made from a listed one', () => {
    const body = {
      catalog: {
        entries: [
          { model_id: 'llama-3-8b', provider: 'official', context: 8192 },
          { model_id: 'qwen-2-7b', provider: 'official', context: 32768 },
          { model_id: 'acme-support-bot', provider: 'acme-corp', upstream: 'llama-3-8b', context: 8192 },
          { model_id: 'acme-triage', provider: 'acme-corp', context: 8192 },
        ],
      },
    };
    assert.deepEqual(read(body), [
      'llama-3-8b:base',
      'qwen-2-7b:base',
      'acme-support-bot:custom<llama-3-8b',
      // Nothing says its kind: unknown, not guessed from its owner.
      'acme-triage:unknown',
    ]);
  });

  it('an answer that plainly holds names is read, or refused: never []', () => {
    const bodies: unknown[] = [
      OPENAI,
      GOOGLE,
      {
        data: [
          { id: 'a-model', owned_by: 'system' },
          { id: 'b-model', owned_by: 'user-42' },
          { id: 'c-model', owned_by: true },
        ],
      },
      {
        items: [
          { ref: 'x-model', visibility: 'public' },
          { ref: 'y-model', visibility: 'team-acme' },
        ],
      },
      {
        models: [
          { name: 'solo-model', kind: 'foundation' },
          { name: 'other-model', kind: 'Fine tuned (LoRA r=16)' },
        ],
      },
    ];
    for (const body of bodies) {
      try {
        const models = readModelList(body).models;
        assert.ok(models.length > 0, `read as []: ${JSON.stringify(body)}`);
      } catch (e) {
        assert.ok(e instanceof ContractError, `${String(e)}`);
      }
    }
    // An empty list is no models, not an error.
    assert.deepEqual(readModelList({ object: 'list', data: [] }).models, []);
  });
});

describe('model list: a parent is a model the answer lists, never a family', () => {
  it('Gemini-like {models, tunedModels}: the base models are base, the tuned one custom, made from a listed model', () => {
    assert.deepEqual(read(GOOGLE), [
      'models/oss-reasoner-8b:base',
      'models/oss-reasoner-70b:base',
      'tunedModels/seeded-0a1b2:custom<models/oss-reasoner-8b',
    ]);
  });

  it('Gemini-like with no tuned model (proto3 leaves the empty list out): baseModelId makes none custom', () => {
    const body = { models: GOOGLE.models };
    for (const m of readModelList(body).models) {
      assert.notEqual(m.kind, 'custom', m.name);
      assert.equal(m.baseModel, undefined, m.name);
    }
  });

  it('Gemini-like: tunedModels, left out while empty, appearing later is read (the profile is inferred again)', () => {
    const first = readModelList({ models: GOOGLE.models });
    assert.ok(first.profile);
    const later = readModelList(GOOGLE, first.profile);
    assert.deepEqual(
      later.models.map((m) => `${m.name}:${m.kind}`),
      ['models/oss-reasoner-8b:base', 'models/oss-reasoner-70b:base', 'tunedModels/seeded-0a1b2:custom'],
    );
    assert.match(later.change ?? '', /no longer fits.*tunedModels\[\]\.name/);
    // Read by the new profile, the next answer fits it.
    assert.equal(readModelList(GOOGLE, later.profile).change, undefined);
  });

  it('Bedrock-like {modelSummaries, customModelSummaries}: foundation models base, custom ones made from a listed ARN', () => {
    const arn = (id: string) => `arn:aws:bedrock:us-east-1::foundation-model/${id}`;
    const body = {
      modelSummaries: [
        { modelArn: arn('amazon.titan-text-express-v1'), modelId: 'amazon.titan-text-express-v1', providerName: 'Amazon' },
        { modelArn: arn('meta.llama3-8b-instruct-v1:0'), modelId: 'meta.llama3-8b-instruct-v1:0', providerName: 'Meta' },
      ],
      customModelSummaries: [
        {
          modelArn: 'arn:aws:bedrock:us-east-1:123456789012:custom-model/amazon.titan-text-express-v1:0:8k/a1b2c3d4e5f6',
          modelName: 'acme-support',
          baseModelArn: arn('amazon.titan-text-express-v1'),
          baseModelName: 'Titan Text G1 - Express',
          creationTime: '2026-11-20T10:00:00Z',
        },
      ],
    };
    const models = readModelList(body).models;
    assert.deepEqual(
      models.map((m) => [m.kind, m.baseModel]),
      [
        ['base', undefined],
        ['base', undefined],
        ['custom', arn('amazon.titan-text-express-v1')],
      ],
    );
  });

  it('Hugging-Face-like: a base_model naming a family or a version tag is no parent; one naming a listed model is', () => {
    const body = [
      { id: 'Qwen/Qwen2-7B', author: 'Qwen', base_model: 'qwen2', downloads: 120_000 },
      { id: 'Qwen/Qwen2-7B-Instruct', author: 'Qwen', base_model: 'Qwen/Qwen2-7B', downloads: 90_000 },
      { id: 'acme/qwen2-support', author: 'acme', base_model: 'Qwen/Qwen2-7B-Instruct', downloads: 12 },
      { id: 'mistralai/Mistral-7B-v0.3', author: 'mistralai', base_model: 'v0.3', downloads: 80_000 },
    ];
    assert.deepEqual(read(body), [
      'Qwen/Qwen2-7B:unknown',
      'Qwen/Qwen2-7B-Instruct:custom<Qwen/Qwen2-7B',
      'acme/qwen2-support:custom<Qwen/Qwen2-7B-Instruct',
      'mistralai/Mistral-7B-v0.3:unknown',
    ]);
  });

  it('a choice of another name field keeps the parents that name what that field lists', () => {
    const body = {
      data: [
        { id: 'm-1', alias: 'first-model', parent: 'm-1-family' },
        { id: 'm-2', alias: 'second-model', parent: 'first-model' },
      ],
    };
    const choices = modelListChoices(body);
    const by = (field: string) => choices.find((c) => c.profile.lists[0]!.names === field)?.profile.lists[0];
    // By id, `parent` names no listed model; by alias, it names first-model.
    assert.equal(by('data[].id')?.parentFrom, undefined);
    assert.deepEqual(by('data[].alias')?.parentFrom, ['parent']);
  });
});

describe('model list: a list named for something else beside one named for models is not models (issue 36, item 7)', () => {
  const names = (body: unknown) => readModelList(body).models.map((m) => m.name);

  it('{models, datasets} of one shape: the datasets are not listed as models', () => {
    assert.deepEqual(names({ models: ['a-1', 'b-2'], datasets: ['ds-1', 'ds-2'] }), ['a-1', 'b-2']);
    // However many more datasets there are: the key says what they are, not their count.
    assert.deepEqual(names({ datasets: ['ds-1', 'ds-2', 'ds-3'], models: ['a-1', 'b-2'] }), ['a-1', 'b-2']);
  });

  it('records too, and lists saying a kind stand for models (files, jobs, fine-tuned datasets do not)', () => {
    const body = {
      foundation_models: [{ id: 'base-1' }, { id: 'base-2' }],
      yours: [{ id: 'mine-1' }],
      files: [{ id: 'file-1' }, { id: 'file-2' }],
      jobs: [{ id: 'job-1' }],
      fine_tuned_datasets: [{ id: 'ds-1' }],
    };
    assert.deepEqual(
      readModelList(body).models.map((m) => `${m.name}:${m.kind}`),
      ['base-1:base', 'base-2:base', 'mine-1:custom'],
    );
  });

  it('the profile read from such an answer reads the next one the same way, the other lists still beside it', () => {
    const first = readModelList({ models: ['a-1', 'b-2'], datasets: ['ds-1', 'ds-2'] });
    assert.ok(first.profile);
    const next = readModelList({ models: ['a-1', 'b-2', 'c-3'], datasets: ['ds-1', 'ds-2', 'ds-9'] }, first.profile);
    assert.deepEqual(
      next.models.map((m) => m.name),
      ['a-1', 'b-2', 'c-3'],
    );
    assert.equal(next.change, undefined);
    // Records named by the same field: the profile's reader does not take the datasets for a group it was not inferred
    // with (which would infer again at every answer).
    const records = (ids: string[]) => ids.map((id) => ({ id }));
    const body = { models: records(['a-1', 'b-2']), datasets: records(['ds-1', 'ds-2']) };
    const byRecords = readModelList(body);
    assert.ok(byRecords.profile);
    assert.deepEqual(
      readModelsByProfile(body, byRecords.profile)?.map((m) => m.name),
      ['a-1', 'b-2'],
    );
  });

  it('lists none of whose keys names models stay a group, as before', () => {
    assert.deepEqual(names({ alpha: ['a-1', 'b-2'], beta: ['c-3'] }), ['a-1', 'b-2', 'c-3']);
  });
});
