// A child process for partLockRace.test.ts: one of two processes racing to take the same stale part lock. The parent
// is the barrier: it plants a stale lock, says `go` to both, collects whether each took it, then says `release`. Each
// keeps what it took until then, so two that both answer `held` held the lock at the same time.
import { lockPartFile, PartFileBusyError, type PartLock } from '../../src/api/partLock';

export type RacerCommand = { go: string } | { release: true };
export type RacerReport = { held: boolean } | { released: true } | { error: string };

let lock: PartLock | undefined;
const send = (report: RacerReport) => process.send?.(report);

process.on('message', (command: RacerCommand) => {
  void (async () => {
    try {
      if ('go' in command) {
        try {
          lock = await lockPartFile(command.go);
          send({ held: true });
        } catch (e) {
          if (!(e instanceof PartFileBusyError)) throw e;
          send({ held: false });
        }
      } else {
        await lock?.release();
        lock = undefined;
        send({ released: true });
      }
    } catch (e) {
      send({ error: e instanceof Error ? e.message : String(e) });
    }
  })();
});
process.on('disconnect', () => process.exit(0));
send({ released: true });
