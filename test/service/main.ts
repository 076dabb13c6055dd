// CLI: node out/test/service/main.js --port N [--storage-port M] [--host H] [--token-interval-ms X]
//   [--finetune-ms Y] [--evaluation-ms E] [--artifact-bytes Z] [--download-mode redirect|metadata] [--data-dir D]
//   [--stream-chunk-bytes B] [--stream-token-chars C] [--reasoning none|inline|field|event] [--think-ms S]
//   [--answer-delay-ms D] [--shape default|openai-like|google-like|nested-phase]
// Prints one line "Emulator listening on <url> (storage <storageUrl>)", then the keys; stops on SIGINT/SIGTERM.
import { REASONING_FORMS, SERVICE_SHAPES, startEmulator, type EmulatorOptions, type ReasoningForm, type ServiceShape } from './emulator';

function parseArgs(argv: string[]): EmulatorOptions {
  const options: EmulatorOptions = {};
  const number = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < 0) {
      throw new Error(`${flag} needs a non-negative number`);
    }
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    switch (flag) {
      case '--port':
        options.port = number(flag, value);
        i++;
        break;
      case '--storage-port':
        options.storagePort = number(flag, value);
        i++;
        break;
      case '--host':
        options.host = value;
        i++;
        break;
      case '--token-interval-ms':
        options.tokenIntervalMs = number(flag, value);
        i++;
        break;
      case '--finetune-ms':
        options.finetuneDurationMs = number(flag, value);
        i++;
        break;
      case '--evaluation-ms':
        options.evaluationDurationMs = number(flag, value);
        i++;
        break;
      case '--artifact-bytes':
        options.artifactBytes = number(flag, value);
        i++;
        break;
      case '--signed-url-ttl-ms':
        options.signedUrlTtlMs = number(flag, value);
        i++;
        break;
      case '--data-dir':
        options.dataDir = value;
        i++;
        break;
      case '--stream-chunk-bytes':
        options.streamChunkBytes = number(flag, value);
        i++;
        break;
      case '--stream-token-chars':
        options.streamTokenChars = number(flag, value);
        i++;
        break;
      case '--reasoning':
        if (!(REASONING_FORMS as readonly string[]).includes(value ?? '')) {
          throw new Error(`--reasoning must be one of ${REASONING_FORMS.join(', ')}`);
        }
        options.reasoning = value as ReasoningForm;
        i++;
        break;
      case '--shape':
        if (!(SERVICE_SHAPES as readonly string[]).includes(value ?? '')) {
          throw new Error(`--shape must be one of ${SERVICE_SHAPES.join(', ')}`);
        }
        options.shape = value as ServiceShape;
        i++;
        break;
      case '--think-ms':
        options.thinkMs = number(flag, value);
        i++;
        break;
      case '--answer-delay-ms':
        options.answerDelayMs = number(flag, value);
        i++;
        break;
      case '--download-mode':
        if (value !== 'redirect' && value !== 'metadata') {
          throw new Error('--download-mode must be redirect or metadata');
        }
        options.downloadMode = value;
        i++;
        break;
      case '--help':
      case '-h':
        console.log(
          'usage: main.js --port N [--storage-port M] [--host H] [--token-interval-ms X] [--finetune-ms Y] [--evaluation-ms E] [--artifact-bytes Z] [--signed-url-ttl-ms T] [--download-mode redirect|metadata] [--data-dir D] [--stream-chunk-bytes B] [--stream-token-chars C] [--reasoning none|inline|field|event] [--think-ms S] [--answer-delay-ms D] [--shape default|openai-like|google-like|nested-phase]',
        );
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument '${flag}' (try --help)`);
    }
  }
  return options;
}

async function main(): Promise<void> {
  const emulator = await startEmulator(parseArgs(process.argv.slice(2)));
  console.log(`Emulator listening on ${emulator.url} (storage ${emulator.storageUrl})`);
  if (emulator.options.shape !== 'default') {
    console.log(`  service style ${emulator.options.shape}`);
  }
  for (const [key, config] of Object.entries(emulator.options.keys)) {
    console.log(
      `  key ${key}: models ${config.models.join(', ')}; list shape ${config.modelListShape ?? 'wrapped-models'}; framing ${config.framing ?? 'sse'}`,
    );
  }
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    console.log(`${signal}: stopping emulator`);
    emulator.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(`emulator: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
