// globalState as VS Code's extension host keeps it (extHostMemento.ts, extHostStorage.ts, mainThreadStorage.ts), for
// tests of the stores that read-modify-write it. Each window has its own copy of the extension's whole state (every
// key in one value); `update` changes that copy at once and flushes the whole copy on a later turn; the workbench
// stores it and sends it to every window, the writer's included, where it replaces that window's copy; only then is
// the writer's `update` answered. So a flush that is on its way while a window writes again comes back over that
// write (the echo), and a window reading before another window's flush reaches it reads an older list.
// Turns are setImmediate callbacks: the order is fixed, no clock is involved. A flush leaves one turn after the
// update (VS Code: a RunOnceScheduler of 0 ms); by default it is stored one turn later and echoed at once. Real trips
// between the extension host and the workbench take longer than that timer (an RPC each way), so a window can send a
// second flush before the first one's echo is back: `turnsEachWay` models that (stored after that many turns, echoed
// and answered after as many again; trips stay in order, as RPC messages do).
import type { Services } from '../../src/services';

type State = Record<string, unknown>;

const clone = (value: State): State => JSON.parse(JSON.stringify(value)) as State;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The workbench's stored state, shared by the windows made with window(). */
export class EchoingWorkbench {
  stored: State = {};
  /** Turns a flush takes to be stored, and its echo (then the answer) to come back; 1 and 0 unless given. */
  private readonly toWorkbench: number;
  private readonly back: number;
  private readonly windows: WindowState[] = [];
  private flights = 0;
  private sent: Array<() => void> = [];

  constructor(options: { turnsEachWay?: number } = {}) {
    this.toWorkbench = options.turnsEachWay ?? 1;
    this.back = options.turnsEachWay ?? 0;
  }

  window(): WindowState {
    const w = new WindowState(this, clone(this.stored));
    this.windows.push(w);
    return w;
  }

  /** Resolves once a flush is on its way to the workbench (sent, not yet stored and echoed). */
  flushInFlight(): Promise<void> {
    return this.flights > 0 ? Promise.resolve() : new Promise((resolve) => this.sent.push(resolve));
  }

  /** Resolves once no flush is on its way (every echo has landed). */
  async settled(): Promise<void> {
    while (this.flights > 0) await turn();
  }

  /** A window's flush: stored after its trip, then sent to every window (each copy replaced), then answered. */
  async receive(value: State): Promise<void> {
    this.flights++;
    for (const resolve of this.sent.splice(0)) resolve();
    for (let i = 0; i < this.toWorkbench; i++) await turn();
    this.stored = clone(value);
    // mainThreadStorage.ts: the store's change event sends the whole stored value back before $setValue answers.
    const echo = clone(this.stored);
    for (let i = 0; i < this.back; i++) await turn();
    for (const w of this.windows) w.accept(clone(echo));
    this.flights--;
  }
}

/** One window's globalState: the vscode.Memento a store is given. */
export class WindowState {
  private waiting: Array<() => void> = [];
  private flushScheduled = false;
  /** How many updates this window made (a store that writes nothing when nothing changed makes none). */
  updates = 0;

  constructor(
    private readonly workbench: EchoingWorkbench,
    private copy: State,
  ) {}

  get<T>(key: string): T | undefined {
    return this.copy[key] as T | undefined;
  }

  keys(): readonly string[] {
    return Object.keys(this.copy).filter((k) => this.copy[k] !== undefined);
  }

  update(key: string, value: unknown): Promise<void> {
    this.updates++;
    if (value === undefined) delete this.copy[key];
    else this.copy[key] = JSON.parse(JSON.stringify(value)) as unknown;
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (this.flushScheduled) return;
      this.flushScheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  accept(value: State): void {
    this.copy = value;
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const answered = this.waiting.splice(0);
    await this.workbench.receive(clone(this.copy));
    for (const resolve of answered) resolve();
  }
}

/** What the download functions use of the services: globalState and the log (kept in `logged`). */
export function servicesOver(state: WindowState, logged: string[] = []): Services {
  const log = { info: (m: string) => logged.push(m), warn: (m: string) => logged.push(m) };
  return { context: { globalState: state }, log } as unknown as Services;
}
