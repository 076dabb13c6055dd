// One first open of the large Models view (or of its reference) in a fresh process:
// node listColdWorker.js '{"mode":"subject","count":10000}'. Prints one JSON line { ms }.
import { prepare, type ColdJob } from './figures/largeList';

async function main(): Promise<void> {
  const { mode, count } = JSON.parse(process.argv[2] ?? '{}') as ColdJob;
  const { subject, reference } = prepare(count);
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
