// The one way the command line and the MCP server reach the service outside VS Code: the key and URL from the
// environment (HOSTED_REASONING_API_KEY / HOSTED_REASONING_BASE_URL; a key file instead of the variable, never an
// argument that lands in shell history), the same URL policy as the extension (urlPolicy.ts: https, or http to this
// machine only; the keyed client never follows a redirect, so the key reaches that origin alone), the proxy the
// environment names (proxyAgents.ts), and the state file under the user's config folder that keeps the service
// profile and the jobs started here (fileState.ts).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ServiceClient } from '../api/client';
import type { Logger } from '../api/http';
import { checkServiceProfile, type ServiceProfile } from '../api/profileFormat';
import { parseJson } from '../api/safeJson';
import { normaliseBaseUrl } from '../api/urlPolicy';
import { configFolder, STATE_FILE_NAME } from './configFolder';
import { CliError, EXIT } from './exitCodes';
import { FileProfileBook } from './fileProfileBook';
import { FileState } from './fileState';
import { proxyConfigured } from './proxyConfigured';

export const ENV_API_KEY = 'HOSTED_REASONING_API_KEY';
export const ENV_BASE_URL = 'HOSTED_REASONING_BASE_URL';

/** A key file larger than this is not a key file. */
const MAX_KEY_FILE_BYTES = 16 * 1024;
/** A profile file larger than this is refused before it is parsed (a profile is bounded far below it). */
const MAX_PROFILE_FILE_BYTES = 1024 * 1024;

export interface EnvironmentOptions {
  env?: NodeJS.ProcessEnv;
  /** A file holding the key (`--key-file`): read instead of HOSTED_REASONING_API_KEY. */
  keyFile?: string;
  /** A service profile (`--profile <file>`): answers are read by it before anything kept. */
  profileFile?: string;
  /** The state file; default `<config folder>/state.json`. */
  stateFile?: string;
  /** The client's log (retries, redirects refused): redacted before it gets here. */
  log?: Logger;
  /** A line for people (a profile learned, a kept profile not used). */
  note?: (message: string) => void;
  userAgent?: string;
}

export interface EnvironmentClient {
  client: ServiceClient;
  /** The origin the key is bound to. */
  origin: string;
  /** `<base URL>#<key identity>`: separates the jobs kept per service and key, without the key. */
  scope: string;
  state: FileState;
  profiles: FileProfileBook;
  /** Whether requests go through a proxy the environment names. */
  proxied: boolean;
}

export async function createClientFromEnvironment(options: EnvironmentOptions = {}): Promise<EnvironmentClient> {
  const env = options.env ?? process.env;
  const note = options.note ?? (() => undefined);
  const rawUrl = env[ENV_BASE_URL]?.trim();
  if (!rawUrl) throw new CliError(`Set ${ENV_BASE_URL} to the service's URL (https://…).`, EXIT.badInput);
  const normalised = normaliseBaseUrl(rawUrl);
  if ('problem' in normalised) throw new CliError(`${ENV_BASE_URL}: ${normalised.problem}`, EXIT.badInput);
  const key = options.keyFile !== undefined ? await readKeyFile(options.keyFile) : env[ENV_API_KEY]?.trim();
  if (!key) throw new CliError(`Set ${ENV_API_KEY} to your API key (or give --key-file <path>).`, EXIT.auth);
  const given = options.profileFile !== undefined ? await readProfileFile(options.profileFile) : undefined;
  const state = await FileState.open(options.stateFile ?? path.join(configFolder(env), STATE_FILE_NAME));
  if (state.problem) note(`The state file is not used (${state.problem}); it is written again from now on.`);
  const origin = normalised.url.origin;
  const profiles = new FileProfileBook(state, origin, given, { note });
  // The proxy agents are loaded only when a proxy is named (most runs have none: figure 14 counts their load).
  const proxied = proxyConfigured(env) && (await import('./proxyAgents.js')).useEnvironmentProxy(env);
  const client = new ServiceClient(
    { baseUrl: normalised.url.href, apiKey: key, log: options.log, userAgent: options.userAgent ?? 'hosted-reasoning-cli' },
    profiles,
  );
  return { client, origin, scope: `${normalised.url.href}#${keyIdentity(key)}`, state, profiles, proxied };
}

/** The same identity the extension's key store gives a key (apiKeyStore.ts), so scopes read alike. */
function keyIdentity(key: string): string {
  return createHash('sha256').update(`hosted-reasoning:${key}`).digest('hex').slice(0, 16);
}

async function readKeyFile(file: string): Promise<string> {
  let text: string;
  try {
    const handle = await fs.open(file, 'r');
    try {
      if ((await handle.stat()).size > MAX_KEY_FILE_BYTES) throw new CliError(`--key-file ${file} is too large to be a key file.`);
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`--key-file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  const key = text.trim();
  if (!key || /\s/.test(key)) throw new CliError(`--key-file ${file} must hold the key alone, on one line.`, EXIT.auth);
  return key;
}

/** A profile file as a person wrote it (the setting's format, docs: README's "How answers are read"), checked. */
export async function readProfileFile(file: string): Promise<ServiceProfile> {
  let text: string;
  try {
    const stat = await fs.stat(file);
    if (stat.size > MAX_PROFILE_FILE_BYTES) throw new CliError(`--profile ${file} is larger than a service profile can be.`);
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`--profile ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  let parsed: unknown;
  try {
    parsed = parseJson(text, 'profile');
  } catch {
    throw new CliError(`--profile ${file} is not valid JSON.`);
  }
  const checked = checkServiceProfile(parsed, 'setting');
  if ('problem' in checked) throw new CliError(`--profile ${file} is not a service profile: ${checked.problem}.`);
  return checked.value;
}
