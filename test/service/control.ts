// HTTP control API under /_emulator/ on the API origin, so out-of-process tests, benchmarks and the demo can drive a
// running emulator. No key needed; never recorded and never subject to faults (it must keep working while faults
// are armed).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonObject, sendDetail, sendJson } from './http-util';
import { MODEL_LIST_SHAPES } from './keys';
import type { DatasetConfig, Emulator, EmulatorOptions, FaultKind, FaultRule, KeyConfig, ReasoningForm, StorageChecksum } from './types';
import { REASONING_FORMS, STORAGE_CHECKSUMS } from './types';
import { SERVICE_SHAPES, type ServiceShape } from './styles';

const FAULT_KINDS: FaultKind[] = ['latency', 'status', 'reset', 'stall', 'truncate', 'body'];

class BadInput extends Error {}

function num(v: unknown, name: string): number | undefined {
  if (v === undefined || v === null) {
    return undefined;
  }
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new BadInput(`'${name}' must be a non-negative number`);
  }
  return v;
}

function str(v: unknown, name: string): string | undefined {
  if (v === undefined || v === null) {
    return undefined;
  }
  if (typeof v !== 'string') {
    throw new BadInput(`'${name}' must be a string`);
  }
  return v;
}

export function parseKeyConfig(v: unknown): KeyConfig {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new BadInput('key config must be an object');
  }
  const o = v as Record<string, unknown>;
  if (!Array.isArray(o.models) || !o.models.every((m) => typeof m === 'string')) {
    throw new BadInput("key config needs 'models': string[]");
  }
  const config: KeyConfig = { models: o.models };
  const shape = str(o.modelListShape, 'modelListShape');
  if (shape !== undefined) {
    if (!(MODEL_LIST_SHAPES as readonly string[]).includes(shape)) {
      throw new BadInput(`modelListShape must be one of ${MODEL_LIST_SHAPES.join(', ')}`);
    }
    config.modelListShape = shape as KeyConfig['modelListShape'];
  }
  const framing = str(o.framing, 'framing');
  if (framing !== undefined) {
    if (framing !== 'sse' && framing !== 'ndjson' && framing !== 'text') {
      throw new BadInput('framing must be sse, ndjson or text');
    }
    config.framing = framing;
  }
  return config;
}

/** Validates a JSON configure patch (types only; semantic checks stay with the handlers). */
export function parseConfigurePatch(o: Record<string, unknown>): Partial<EmulatorOptions> {
  const patch: Partial<EmulatorOptions> = {};
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case 'tokenIntervalMs':
      case 'finetuneDurationMs':
      case 'evaluationDurationMs':
      case 'artifactBytes':
      case 'signedUrlTtlMs':
      case 'streamChunkBytes':
      case 'streamTokenChars':
      case 'thinkMs':
      case 'answerDelayMs':
        patch[k] = num(v, k);
        break;
      case 'holdInferenceAfter':
        if (typeof v !== 'number' || !Number.isInteger(v) || v < -1) {
          throw new BadInput('holdInferenceAfter must be an integer, -1 or more');
        }
        patch.holdInferenceAfter = v;
        break;
      case 'reasoning':
        if (!REASONING_FORMS.includes(v as ReasoningForm)) {
          throw new BadInput(`reasoning must be one of ${REASONING_FORMS.join(', ')}`);
        }
        patch.reasoning = v as ReasoningForm;
        break;
      case 'shape':
        if (!SERVICE_SHAPES.includes(v as ServiceShape)) {
          throw new BadInput(`shape must be one of ${SERVICE_SHAPES.join(', ')}`);
        }
        patch.shape = v as ServiceShape;
        break;
      case 'renameTunedModels':
      case 'holdFinetunes':
      case 'rushFinetunes':
      case 'holdEvaluations':
        if (typeof v !== 'boolean') {
          throw new BadInput(`${k} must be true or false`);
        }
        patch[k] = v;
        break;
      case 'downloadMode':
        if (v !== 'redirect' && v !== 'metadata') {
          throw new BadInput("downloadMode must be 'redirect' or 'metadata'");
        }
        patch.downloadMode = v;
        break;
      case 'storageChecksum':
        if (!STORAGE_CHECKSUMS.includes(v as StorageChecksum)) {
          throw new BadInput(`storageChecksum must be one of ${STORAGE_CHECKSUMS.join(', ')}`);
        }
        patch.storageChecksum = v as StorageChecksum;
        break;
      case 'redirectStatus':
        if (![301, 302, 303, 307, 308].includes(v as number)) {
          throw new BadInput('redirectStatus must be 301, 302, 303, 307 or 308');
        }
        patch.redirectStatus = v as EmulatorOptions['redirectStatus'];
        break;
      case 'responseText':
        // null clears it (back to the deterministic composed answer).
        patch.responseText = v === null ? undefined : str(v, k);
        break;
      case 'reasoningText':
        patch.reasoningText = v === null ? undefined : str(v, k);
        break;
      case 'keys': {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) {
          throw new BadInput("'keys' must be an object");
        }
        const keys: Record<string, KeyConfig> = {};
        for (const [key, cfg] of Object.entries(v as Record<string, unknown>)) {
          keys[key] = parseKeyConfig(cfg);
        }
        patch.keys = keys;
        break;
      }
      case 'datasets': {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) {
          throw new BadInput("'datasets' must be an object");
        }
        const datasets: NonNullable<EmulatorOptions['datasets']> = {};
        for (const [name, d] of Object.entries(v as Record<string, unknown>)) {
          const ds = (d ?? {}) as Record<string, unknown>;
          const total = num(ds.total, `${name}.total`);
          if (total === undefined || !Number.isInteger(total)) {
            throw new BadInput(`dataset '${name}' needs an integer 'total'`);
          }
          const dataset: DatasetConfig = { total, correctRatio: num(ds.correctRatio, `${name}.correctRatio`) };
          if (ds.scores !== undefined) {
            if (ds.scores === null || typeof ds.scores !== 'object' || Array.isArray(ds.scores)) {
              throw new BadInput(`'${name}.scores' must be an object of model name -> ratio`);
            }
            const scores: Record<string, number> = {};
            for (const [model, ratio] of Object.entries(ds.scores as Record<string, unknown>)) {
              const r = num(ratio, `${name}.scores.${model}`);
              if (r === undefined || r > 1) {
                throw new BadInput(`'${name}.scores.${model}' must be a ratio between 0 and 1`);
              }
              scores[model] = r;
            }
            dataset.scores = scores;
          }
          if (ds.judgeModel !== undefined) {
            if (typeof ds.judgeModel !== 'string' || ds.judgeModel === '') {
              throw new BadInput(`'${name}.judgeModel' must be a non-empty string`);
            }
            dataset.judgeModel = ds.judgeModel;
          }
          datasets[name] = dataset;
        }
        patch.datasets = datasets;
        break;
      }
      default:
        throw new BadInput(`unknown or fixed option '${k}'`);
    }
  }
  return patch;
}

export function parseFaultRule(o: Record<string, unknown>): FaultRule {
  const kind = o.kind;
  if (typeof kind !== 'string' || !FAULT_KINDS.includes(kind as FaultKind)) {
    throw new BadInput(`'kind' must be one of ${FAULT_KINDS.join(', ')}`);
  }
  let path: string | RegExp;
  if (typeof o.pathRegex === 'string') {
    try {
      path = new RegExp(o.pathRegex);
    } catch (err) {
      throw new BadInput(`bad pathRegex: ${err instanceof Error ? err.message : String(err)}`);
    }
  } else if (typeof o.path === 'string') {
    path = o.path;
  } else {
    throw new BadInput("a fault needs 'path' (string) or 'pathRegex'");
  }
  const origin = o.origin ?? 'api';
  if (origin !== 'api' && origin !== 'storage') {
    throw new BadInput("origin must be 'api' or 'storage'");
  }
  const rule: FaultRule = { origin, path, kind: kind as FaultKind };
  const method = str(o.method, 'method');
  if (method !== undefined) rule.method = method;
  const times = num(o.times, 'times');
  if (times !== undefined) rule.times = times;
  const ms = num(o.ms, 'ms');
  if (ms !== undefined) rule.ms = ms;
  const status = num(o.status, 'status');
  if (status !== undefined) rule.status = status;
  const retryAfter = str(o.retryAfter, 'retryAfter');
  if (retryAfter !== undefined) rule.retryAfter = retryAfter;
  const afterBytes = num(o.afterBytes, 'afterBytes');
  if (afterBytes !== undefined) rule.afterBytes = afterBytes;
  const contentType = str(o.contentType, 'contentType');
  if (contentType !== undefined) rule.contentType = contentType;
  if (o.headers !== undefined) {
    if (o.headers === null || typeof o.headers !== 'object' || Array.isArray(o.headers)) {
      throw new BadInput("'headers' must be an object of strings");
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(o.headers)) {
      headers[name] = str(value, `headers.${name}`) ?? '';
    }
    rule.headers = headers;
  }
  const body = str(o.body, 'body');
  const bodyBase64 = str(o.bodyBase64, 'bodyBase64');
  if (bodyBase64 !== undefined) rule.body = Buffer.from(bodyBase64, 'base64');
  else if (body !== undefined) rule.body = body;
  return rule;
}

function faultToJson(rule: FaultRule, remaining: number): Record<string, unknown> {
  const { path, body, ...rest } = rule;
  return {
    ...rest,
    ...(typeof path === 'string' ? { path } : { pathRegex: path.source }),
    ...(body === undefined ? {} : typeof body === 'string' ? { body } : { bodyBase64: body.toString('base64') }),
    remaining,
  };
}

/** Answers one /_emulator/... request. */
export async function handleControl(
  emulator: Emulator,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
): Promise<void> {
  const method = req.method ?? 'GET';
  const route = `${method} ${path}`;
  try {
    switch (route) {
      case 'GET /_emulator/health':
        sendJson(res, 200, { ok: true, url: emulator.url, storageUrl: emulator.storageUrl });
        return;
      case 'GET /_emulator/state': {
        const { keys, ...rest } = emulator.options;
        sendJson(res, 200, { options: rest, keys, faults: emulator.faults.list().map((f) => faultToJson(f.rule, f.remaining)) });
        return;
      }
      case 'POST /_emulator/configure': {
        const body = await readJsonObject(req, res);
        if (!body.ok) return;
        emulator.configure(parseConfigurePatch(body.value));
        const { keys: _keys, ...rest } = emulator.options;
        sendJson(res, 200, { ok: true, options: rest });
        return;
      }
      case 'POST /_emulator/keys': {
        const body = await readJsonObject(req, res);
        if (!body.ok) return;
        const key = str(body.value.key, 'key');
        if (!key) throw new BadInput("'key' is required");
        emulator.setKey(key, parseKeyConfig(body.value.config));
        sendJson(res, 200, { ok: true });
        return;
      }
      case 'POST /_emulator/faults': {
        const body = await readJsonObject(req, res);
        if (!body.ok) return;
        emulator.faults.add(parseFaultRule(body.value));
        sendJson(res, 200, { ok: true, armed: emulator.faults.list().length });
        return;
      }
      case 'GET /_emulator/faults':
        sendJson(
          res,
          200,
          emulator.faults.list().map((f) => faultToJson(f.rule, f.remaining)),
        );
        return;
      case 'DELETE /_emulator/faults':
        emulator.faults.clear();
        sendJson(res, 200, { ok: true });
        return;
      case 'GET /_emulator/received':
        sendJson(res, 200, emulator.received);
        return;
      case 'DELETE /_emulator/received':
        emulator.clearReceived();
        sendJson(res, 200, { ok: true });
        return;
      case 'POST /_emulator/custom-models': {
        const body = await readJsonObject(req, res);
        if (!body.ok) return;
        const key = str(body.value.key, 'key');
        const modelName = str(body.value.modelName, 'modelName');
        if (!key || !modelName) throw new BadInput("'key' and 'modelName' are required");
        const artifactBytes = num(body.value.artifactBytes, 'artifactBytes');
        const baseModel = str(body.value.baseModel, 'baseModel');
        await emulator.addCustomModel(key, modelName, { artifactBytes, baseModel });
        const info = emulator.artifactInfo(modelName, key);
        sendJson(res, 200, { ok: true, ...(info ?? {}) });
        return;
      }
      case 'GET /_emulator/artifact-info': {
        const modelName = query.get('model_name');
        if (!modelName) throw new BadInput("'model_name' query parameter is required");
        const info = emulator.artifactInfo(modelName, query.get('key') ?? undefined);
        if (!info) {
          sendDetail(res, 404, `No artifact for model '${modelName}'`);
          return;
        }
        sendJson(res, 200, { path: info.path, size: info.size, sha256: info.sha256, filename: info.filename });
        return;
      }
      default:
        sendDetail(res, 404, `Unknown control route ${route}`);
    }
  } catch (err) {
    if (err instanceof BadInput || err instanceof TypeError) {
      sendDetail(res, 400, err.message);
    } else {
      sendDetail(res, 500, err instanceof Error ? err.message : String(err));
    }
  }
}
