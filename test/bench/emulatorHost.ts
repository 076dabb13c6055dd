// The emulator in a process of its own for the benchmarks: the measured client must share neither its CPU time nor
// its heap. Forked by EmulatorProcess (emulatorProcess.ts); driven over the IPC channel.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { startEmulator, type Emulator, type FaultRule } from '../service/emulator';
import type { HostCall, HostReply } from './emulatorProcess';

let em: Emulator | undefined;

function need(): Emulator {
  if (!em) throw new Error('emulator not started');
  return em;
}

async function handle(call: HostCall): Promise<unknown> {
  switch (call.op) {
    case 'start':
      em = await startEmulator(call.options);
      return { url: em.url, storageUrl: em.storageUrl, dataDir: em.options.dataDir };
    case 'configure':
      need().configure(call.patch);
      return true;
    case 'setKey':
      need().setKey(call.key, call.config);
      return true;
    case 'addCustomModel':
      await need().addCustomModel(call.key, call.modelName, { artifactBytes: call.artifactBytes });
      return need().artifactInfo(call.modelName, call.key);
    case 'addFault': {
      const { pathRegex, ...rest } = call.rule;
      need().faults.add({ ...(rest as Omit<FaultRule, 'path'>), path: pathRegex ? new RegExp(pathRegex) : String(rest.path) });
      return true;
    }
    case 'received':
      return need().received.filter((r) => !call.pathPrefix || r.path.startsWith(call.pathPrefix));
    case 'clearReceived':
      need().clearReceived();
      return true;
    case 'purgeUploads': {
      // Queued jobs never read their uploads in a benchmark (their duration is huge): free the disk between runs.
      const dir = join(need().options.dataDir, 'uploads');
      const entries = await readdir(dir).catch(() => [] as string[]);
      await Promise.all(entries.map((e) => rm(join(dir, e), { recursive: true, force: true })));
      return entries.length;
    }
    case 'close':
      await em?.close();
      em = undefined;
      return true;
  }
}

process.on('message', (raw) => {
  const call = raw as HostCall & { id: number };
  handle(call).then(
    (value) => process.send?.({ id: call.id, ok: true, value } satisfies HostReply),
    (e: unknown) => process.send?.({ id: call.id, ok: false, error: e instanceof Error ? e.message : String(e) } satisfies HostReply),
  );
});
process.on('disconnect', () => {
  void (em?.close() ?? Promise.resolve()).finally(() => process.exit(0));
});
process.send?.({ id: 0, ok: true, value: 'ready' } satisfies HostReply);
