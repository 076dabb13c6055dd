// The command line's arguments, read with node's own parseArgs (strict: an unknown option is refused, not ignored).
// Nothing here takes a key: the key comes from the environment or a key file (environment.ts).
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './exitCodes';

export interface CommonOptions {
  json: boolean;
  keyFile?: string;
  profileFile?: string;
  verbose: boolean;
}

/** `finetune`'s own options, as parsed (commands/finetune.ts takes them). */
export interface FinetuneOptions {
  files: string[];
  base: string;
  modelName: string;
  questions: number;
  useCase: string;
  mode: string;
  wait: boolean;
  yes: boolean;
  intervalMs: number;
}

export type Command = CommonOptions &
  (
    | { name: 'help'; topic?: string }
    | { name: 'version' }
    | { name: 'models' }
    | { name: 'ask'; model: string; prompt: string | undefined; reasoning: boolean; temperature?: number }
    | ({ name: 'finetune' } & FinetuneOptions)
    | { name: 'status'; jobId: string; wait: boolean; intervalMs: number }
    | { name: 'evaluate'; model: string; dataset: string; wait: boolean; again: boolean; intervalMs: number }
    | { name: 'report'; model: string; dataset?: string; base?: string; requireBetter: boolean }
    | { name: 'download'; model: string; out: string; overwrite: boolean }
    | { name: 'profile'; keep: boolean }
    | { name: 'mcp'; roots: string[]; downloadFolder?: string }
  );

export type CommandName = Command['name'];

export const COMMANDS = ['models', 'ask', 'finetune', 'status', 'evaluate', 'report', 'download', 'profile', 'mcp'] as const;

/** The default number of questions a finetune generates, as the extension's setting says (hostedReasoning.finetune.numQs). */
export const DEFAULT_QUESTIONS = 50;
export const DEFAULT_MODE = 'pretraining';
export const DEFAULT_INTERVAL_SECONDS = 5;

type Options = NonNullable<ParseArgsConfig['options']>;

const COMMON: Options = {
  json: { type: 'boolean' },
  'key-file': { type: 'string' },
  profile: { type: 'string' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};
const WAIT: Options = { wait: { type: 'boolean' }, interval: { type: 'string' } };

const OPTIONS: Record<(typeof COMMANDS)[number], Options> = {
  models: {},
  ask: { reasoning: { type: 'boolean' }, temperature: { type: 'string' } },
  finetune: {
    base: { type: 'string' },
    name: { type: 'string' },
    questions: { type: 'string' },
    'use-case': { type: 'string' },
    mode: { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
    ...WAIT,
  },
  status: WAIT,
  evaluate: { again: { type: 'boolean' }, ...WAIT },
  report: { dataset: { type: 'string' }, base: { type: 'string' }, 'require-better': { type: 'boolean' } },
  download: { out: { type: 'string' }, overwrite: { type: 'boolean' } },
  profile: { keep: { type: 'boolean' } },
  mcp: { 'download-folder': { type: 'string' }, root: { type: 'string', multiple: true } },
};

export function parseCommand(argv: readonly string[], cwd = process.cwd()): Command {
  const [first, ...rest] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
    return { name: 'help', topic: first === 'help' ? rest[0] : undefined, ...defaults() };
  }
  if (first === '--version' || first === 'version') return { name: 'version', ...defaults() };
  if (!(COMMANDS as readonly string[]).includes(first)) throw new CliError(`Unknown command "${first}". Commands: ${COMMANDS.join(', ')}.`);
  const name = first as (typeof COMMANDS)[number];
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: { ...COMMON, ...OPTIONS[name] }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError(`${name}: ${(error as Error).message}`);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const p = parsed.positionals;
  const common: CommonOptions = {
    json: v.json === true,
    verbose: v.verbose === true,
    ...(typeof v['key-file'] === 'string' && { keyFile: v['key-file'] }),
    ...(typeof v.profile === 'string' && { profileFile: v.profile }),
  };
  if (v.help === true) return { name: 'help', topic: name, ...common };
  const str = (key: string) => (typeof v[key] === 'string' ? v[key] : undefined);
  const intervalMs = () => seconds(str('interval'), '--interval') * 1000;
  const positionals = (min: number, max: number, usage: string) => {
    if (p.length < min || p.length > max) throw new CliError(`Usage: hosted-reasoning ${name} ${usage}`);
  };
  switch (name) {
    case 'models':
      positionals(0, 0, '');
      return { name, ...common };
    case 'mcp': {
      positionals(0, 0, '[--root <folder>]… [--download-folder <folder>]');
      const folder = str('download-folder');
      const roots = (parsed.values.root as string[] | undefined) ?? [];
      return {
        name,
        roots: roots.map((r) => path.resolve(cwd, r)),
        ...(folder !== undefined && { downloadFolder: path.resolve(cwd, folder) }),
        ...common,
      };
    }
    case 'profile':
      positionals(0, 0, '[--profile <file> [--keep]]');
      if (v.keep === true && common.profileFile === undefined) {
        throw new CliError('profile --keep needs --profile <file>: the profile to keep.');
      }
      return { name, keep: v.keep === true, ...common };
    case 'ask': {
      positionals(1, 2, '<model> [prompt|-]');
      const temperature = str('temperature');
      return {
        name,
        model: nonEmpty(p[0]!, 'the model'),
        prompt: p[1] === undefined || p[1] === '-' ? undefined : p[1],
        reasoning: v.reasoning === true,
        ...(temperature !== undefined && { temperature: numberIn(temperature, '--temperature', 0, 2) }),
        ...common,
      };
    }
    case 'finetune': {
      if (p.length === 0) {
        throw new CliError(
          'Usage: hosted-reasoning finetune <files…> --base <model> --name <name> [--questions <n>] [--use-case <text>] [--wait] [--yes]',
        );
      }
      const base = str('base');
      const modelName = str('name');
      if (base === undefined) throw new CliError('finetune: --base <model> is required (the base model to tune).');
      if (modelName === undefined) throw new CliError('finetune: --name <name> is required (the name of the new model).');
      const questions = str('questions');
      return {
        name,
        files: p.map((f) => path.resolve(cwd, f)),
        base: nonEmpty(base, '--base'),
        modelName: nonEmpty(modelName, '--name'),
        questions: questions === undefined ? DEFAULT_QUESTIONS : integerIn(questions, '--questions', 1, 10_000),
        useCase: str('use-case') ?? '',
        mode: str('mode') ?? DEFAULT_MODE,
        wait: v.wait === true,
        yes: v.yes === true,
        intervalMs: intervalMs(),
        ...common,
      };
    }
    case 'status':
      positionals(1, 1, '<job> [--wait]');
      return { name, jobId: nonEmpty(p[0]!, 'the job id'), wait: v.wait === true, intervalMs: intervalMs(), ...common };
    case 'evaluate':
      positionals(2, 2, '<model> <dataset> [--wait] [--again]');
      return {
        name,
        model: nonEmpty(p[0]!, 'the model'),
        dataset: nonEmpty(p[1]!, 'the dataset'),
        wait: v.wait === true,
        again: v.again === true,
        intervalMs: intervalMs(),
        ...common,
      };
    case 'report':
      positionals(1, 1, '<model> [--dataset <name>] [--base <model>] [--require-better]');
      return {
        name,
        model: nonEmpty(p[0]!, 'the model'),
        ...(str('dataset') !== undefined && { dataset: str('dataset') }),
        ...(str('base') !== undefined && { base: str('base') }),
        requireBetter: v['require-better'] === true,
        ...common,
      };
    case 'download':
      positionals(1, 1, '<model> [--out <folder>] [--overwrite]');
      return {
        name,
        model: nonEmpty(p[0]!, 'the model'),
        out: path.resolve(cwd, str('out') ?? '.'),
        overwrite: v.overwrite === true,
        ...common,
      };
  }
}

function defaults(): CommonOptions {
  return { json: false, verbose: false };
}

function nonEmpty(value: string, what: string): string {
  if (value.trim() === '') throw new CliError(`${what} must not be empty.`);
  return value;
}

function seconds(text: string | undefined, option: string): number {
  if (text === undefined) return DEFAULT_INTERVAL_SECONDS;
  return numberIn(text, option, 0.05, 3600);
}

function numberIn(text: string, option: string, min: number, max: number): number {
  const n = Number(text);
  if (text.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new CliError(`${option} must be a number from ${min} to ${max}.`);
  }
  return n;
}

function integerIn(text: string, option: string, min: number, max: number): number {
  const n = numberIn(text, option, min, max);
  if (!Number.isInteger(n)) throw new CliError(`${option} must be a whole number.`);
  return n;
}
