// One first open of the 10,000-model view (or of its reference) in a fresh process: node listColdWorker.js '"subject"'.
// Prints one JSON line { ms }.
import { prepare } from './figures/largeList';

async function main(): Promise<void> {
  const mode = JSON.parse(process.argv[2] ?? '""') as string;
  const { subject, reference } = prepare();
  const ms = mode === 'subject' ? (await subject()).ms : await reference();
  process.stdout.write(`${JSON.stringify({ ms })}\n`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  },
);
