// Parent side of emulatorHost.ts: forks the emulator into its own process and calls it over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { ArtifactInfo, EmulatorOptions, FaultRule, KeyConfig, RecordedRequest } from '../service/emulator';

export type HostCall =
  | { op: 'start'; options: EmulatorOptions }
  | { op: 'configure'; patch: Partial<EmulatorOptions> }
  | { op: 'setKey'; key: string; config: KeyConfig }
  | { op: 'addCustomModel'; key: string; modelName: string; artifactBytes: number }
  | { op: 'addFault'; rule: Omit<FaultRule, 'path'> & { path?: string; pathRegex?: string } }
  | { op: 'received'; pathPrefix?: string }
  | { op: 'clearReceived' }
  | { op: 'purgeUploads' }
  | { op: 'close' };

export interface HostReply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export class EmulatorProcess {
  url = '';
  storageUrl = '';
  dataDir = '';
  readonly pid: number;
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly ready: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    this.pid = child.pid ?? -1;
    this.ready = new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => {
        const err = new Error(`emulator process exited (${code})`);
        reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      });
      child.on('message', (raw) => {
        const reply = raw as HostReply;
        if (reply.id === 0) return resolve();
        const p = this.pending.get(reply.id);
        if (!p) return;
        this.pending.delete(reply.id);
        if (reply.ok) p.resolve(reply.value);
        else p.reject(new Error(reply.error));
      });
    });
  }

  static async start(options: EmulatorOptions): Promise<EmulatorProcess> {
    const child = fork(path.join(__dirname, 'emulatorHost.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const p = new EmulatorProcess(child);
    await p.ready;
    const started = (await p.call({ op: 'start', options })) as { url: string; storageUrl: string; dataDir: string };
    p.url = started.url;
    p.storageUrl = started.storageUrl;
    p.dataDir = started.dataDir;
    return p;
  }

  call(call: HostCall): Promise<unknown> {
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...call, id });
    });
  }

  configure(patch: Partial<EmulatorOptions>): Promise<unknown> {
    return this.call({ op: 'configure', patch });
  }

  setKey(key: string, config: KeyConfig): Promise<unknown> {
    return this.call({ op: 'setKey', key, config });
  }

  async addCustomModel(key: string, modelName: string, artifactBytes: number): Promise<ArtifactInfo> {
    return (await this.call({ op: 'addCustomModel', key, modelName, artifactBytes })) as ArtifactInfo;
  }

  async received(pathPrefix?: string): Promise<RecordedRequest[]> {
    return (await this.call({ op: 'received', pathPrefix })) as RecordedRequest[];
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.call({ op: 'close' }).catch(() => undefined);
    this.child.disconnect();
    await exited;
  }
}
