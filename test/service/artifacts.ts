// Custom models and their GGUF artifacts on disk: safe file names (model names are user input and may be hostile),
// creation (end of a finetune, or seeded by tests via addCustomModel) and GET /cr/finetune_model/download.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { writeGguf } from './gguf';
import { sendDetail, sendJson, sendValidation } from './http-util';
import { digestsOf } from './checksums';
import { customModelsOf, isBaseModel, modelNamed } from './keys';
import { styledDownload } from './styles';
import { ownerId, signArtifactUrl } from './storage';
import type { CustomModel, State } from './types';

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;
const MAX_BASE_NAME = 100;

/**
 * A safe base name for a model's file: only [A-Za-z0-9._-], no leading dots, no reserved Windows device names, at
 * most 100 characters, never empty. "../../evil" -> "evil", "a/b" -> "a_b", "CON" -> "CON_".
 */
export function safeBaseName(modelName: string): string {
  let name = modelName
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .replace(/[._]+$/, '')
    .slice(0, MAX_BASE_NAME);
  if (name === '') {
    name = 'model';
  }
  if (WINDOWS_RESERVED.test(name.split('.')[0]!)) {
    name = `${name}_`;
  }
  return name;
}

export function artifactFileName(modelName: string): string {
  return `${safeBaseName(modelName)}.gguf`;
}

/**
 * Writes the artifact and registers the model for the key. The on-disk name is derived from a hash plus the safe
 * base name, so neither the key nor a hostile model name can steer the path out of dataDir/artifacts.
 */
export async function createCustomModel(
  state: State,
  key: string,
  modelName: string,
  baseModel: string,
  bytes: number,
): Promise<CustomModel> {
  const dir = join(state.options.dataDir, 'artifacts');
  await mkdir(dir, { recursive: true });
  const tag = createHash('sha256')
    .update(`${ownerId(state, key)}\n${modelName}`)
    .digest('hex')
    .slice(0, 16);
  const path = join(dir, `${tag}-${safeBaseName(modelName)}.gguf`);
  const { size, sha256 } = await writeGguf(path, { modelName, baseModel, totalBytes: bytes });
  const model: CustomModel = {
    name: modelName,
    key,
    baseModel,
    createdAt: new Date().toISOString(),
    artifact: { path, size, sha256, filename: artifactFileName(modelName) },
  };
  customModelsOf(state, key).set(modelName, model);
  return model;
}

/**
 * GET /cr/finetune_model/download?model_name=. Mode from options.downloadMode, overridable per request with
 * `redirect=true|false` (an extra parameter the spec leaves room for).
 */
export async function handleDownload(state: State, key: string, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const name = query.get('model_name');
  if (name === null || name === '') {
    sendValidation(res, [{ type: 'missing', loc: ['query', 'model_name'], msg: 'Field required', input: null }]);
    return;
  }
  const model = customModelsOf(state, key).get(name);
  if (!model) {
    if (isBaseModel(state, key, modelNamed(state, key, name))) {
      sendDetail(res, 404, `Model '${name}' is a base model; only custom (finetuned) models can be downloaded`);
    } else {
      sendDetail(res, 404, `Model '${name}' not found`);
    }
    return;
  }
  const override = query.get('redirect');
  const redirect = override === null ? state.options.downloadMode === 'redirect' : !/^(0|false|no)$/i.test(override);
  const signed = signArtifactUrl(state, model);
  if (state.options.shape !== 'default' && override === null) {
    // A styled service answers JSON of its own (a redirect only when asked with redirect=true).
    const digests = await digestsOf(model.artifact.path);
    const styled = styledDownload(
      state.options.shape,
      {
        model: model.name,
        url: signed.url,
        expiresAt: signed.expiresAt,
        size: model.artifact.size,
        sha256: model.artifact.sha256,
        filename: model.artifact.filename,
        md5Base64: digests.md5.toString('base64'),
        crc32cBase64: digests.crc32c.toString('base64'),
      },
      state.options.signedUrlTtlMs,
    );
    sendJson(res, 200, styled, { 'Cache-Control': 'no-store' });
    return;
  }
  if (redirect) {
    res.writeHead(state.options.redirectStatus, { Location: signed.url, 'Cache-Control': 'no-store', 'Content-Length': '0' });
    res.end();
    return;
  }
  sendJson(
    res,
    200,
    {
      url: signed.url,
      expires_at: new Date(signed.expiresAt).toISOString(),
      size: model.artifact.size,
      sha256: model.artifact.sha256,
      filename: model.artifact.filename,
    },
    { 'Cache-Control': 'no-store' },
  );
}
