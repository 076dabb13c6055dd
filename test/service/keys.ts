// API keys, what each may use, and GET /cr/get_allowed_models in every body shape a client may meet.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendDetail, sendJson } from './http-util';
import { ownerId } from './storage';
import { canonicalModelName, styledModelList } from './styles';
import type { CustomModel, KeyConfig, ModelListShape, State } from './types';

export const DEFAULT_KEYS: Record<string, KeyConfig> = {
  'demo-key': { models: ['oss-reasoner-8b', 'oss-reasoner-70b'], modelListShape: 'wrapped-models', framing: 'sse' },
  'other-key': { models: ['oss-coder-14b'], modelListShape: 'strings', framing: 'ndjson' },
};

export const MODEL_LIST_SHAPES: readonly ModelListShape[] = [
  'strings',
  'objects-name',
  'objects-model_name',
  'objects-id',
  'objects-model',
  'wrapped-models',
  'wrapped-allowed_models',
  'wrapped-data',
];

/**
 * FastAPI's APIKeyHeader answers a missing header itself; an unknown key is the app's own 403. Returns the key, or
 * undefined after answering.
 */
export function authenticate(state: State, req: IncomingMessage, res: ServerResponse): string | undefined {
  const raw = req.headers['x-api-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    sendDetail(res, 401, 'Missing API key', { 'WWW-Authenticate': 'APIKey' });
    return undefined;
  }
  if (!Object.prototype.hasOwnProperty.call(state.options.keys, key)) {
    sendDetail(res, 403, 'Invalid API key');
    return undefined;
  }
  return key;
}

export function keyConfig(state: State, key: string): KeyConfig {
  return state.options.keys[key] ?? { models: [] };
}

export function customModelsOf(state: State, key: string): Map<string, CustomModel> {
  let models = state.customModels.get(key);
  if (!models) {
    models = new Map();
    state.customModels.set(key, models);
  }
  return models;
}

export function isBaseModel(state: State, key: string, name: string): boolean {
  return keyConfig(state, key).models.includes(name);
}

/** The model a request's name means in the service's style (Google's `models/<id>` is the base model `<id>`). */
export function modelNamed(state: State, key: string, name: string): string {
  return canonicalModelName(state.options.shape, name, (n) => isBaseModel(state, key, n));
}

/** Base or finished custom model of this key. */
export function hasModel(state: State, key: string, name: string): boolean {
  return isBaseModel(state, key, name) || customModelsOf(state, key).has(name);
}

export interface ModelRecord {
  model_name: string;
  type: 'base' | 'custom';
  base_model?: string;
  created_at?: string;
}

function records(state: State, key: string): ModelRecord[] {
  const base: ModelRecord[] = keyConfig(state, key).models.map((name) => ({ model_name: name, type: 'base' }));
  const custom: ModelRecord[] = [...customModelsOf(state, key).values()].map((m) => ({
    model_name: m.name,
    type: 'custom',
    base_model: m.baseModel,
    created_at: m.createdAt,
  }));
  return [...base, ...custom];
}

/** Renames model_name to `field`, keeping the other fields in a stable order. */
function withNameField(record: ModelRecord, field: string): Record<string, unknown> {
  const { model_name: name, ...rest } = record;
  return { [field]: name, ...rest };
}

/** A made-up resource name of a model: nothing of its name shows in it. */
function resourceName(name: string): string {
  return `accounts/emulator/models/m-${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

export function shapeModelList(list: ModelRecord[], shape: ModelListShape): unknown {
  switch (shape) {
    case 'strings':
      return list.map((r) => r.model_name);
    case 'objects-name':
      return list.map((r) => withNameField(r, 'name'));
    case 'objects-model_name':
      return list.map((r) => withNameField(r, 'model_name'));
    case 'objects-id':
      return list.map((r) => withNameField(r, 'id'));
    case 'objects-model':
      return list.map((r) => withNameField(r, 'model'));
    case 'wrapped-models':
      return { models: list };
    case 'wrapped-allowed_models':
      return { allowed_models: list };
    case 'wrapped-data':
      // OpenAI-compatible list: {"object": "list", "data": [{"id", "object": "model", ...}]}.
      return { object: 'list', data: list.map((r) => ({ ...withNameField(r, 'id'), object: 'model' })) };
    case 'grouped-by-kind':
      return {
        foundation_models: list.filter((r) => r.type === 'base').map((r) => r.model_name),
        yourModels: list
          .filter((r) => r.type === 'custom')
          .map((r) => ({ slug: r.model_name, derived_from: r.base_model, created: r.created_at })),
      };
    case 'nested-handles':
      return {
        ok: true,
        payload: {
          catalogue: list.map((r) => ({
            handle: r.model_name,
            owner: 'emulator',
            flavour: r.type === 'base' ? 'foundation' : 'fine-tuned',
            ...(r.base_model ? { derived_from: r.base_model } : {}),
          })),
        },
      };
    case 'nested-results':
      return {
        results: {
          items: list.map((r) => ({
            model: {
              id: r.model_name,
              tier: r.type === 'base' ? 'foundation' : 'fine-tuned',
              ...(r.base_model ? { parent: r.base_model } : {}),
            },
            usage: { requests: 0 },
          })),
        },
      };
    case 'resource-names':
      // A resource name the service made up leads each record; the model's own name is beside it (issue 36, item 8).
      // For listing only: requests name models by their own name.
      return {
        models: list.map((r) => ({
          name: resourceName(r.model_name),
          model_id: r.model_name,
          type: r.type,
          ...(r.base_model ? { base_model: resourceName(r.base_model) } : {}),
          ...(r.created_at ? { create_time: r.created_at } : {}),
        })),
      };
    case 'two-lists': {
      // A service that lists every model and, beside it, the models it features: today all of them. Equally good
      // lists: the extension must not pick one silently, the person chooses.
      const items = list.map((r) => ({ ref: r.model_name, tier: r.type === 'base' ? 'foundation' : 'fine-tuned' }));
      return { available: { items }, featured: { items: items.map((i) => ({ ...i })) } };
    }
    case 'unreadable':
      return { catalogue: 'see the documentation for the models of this key' };
  }
}

export function handleAllowedModels(state: State, key: string, res: ServerResponse): void {
  const styled = styledModelList(state.options.shape, records(state, key), ownerId(state, key).slice(0, 12));
  if (styled !== undefined) {
    sendJson(res, 200, styled);
    return;
  }
  const shape = keyConfig(state, key).modelListShape ?? 'wrapped-models';
  sendJson(res, 200, shapeModelList(records(state, key), shape));
}
