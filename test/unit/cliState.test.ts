// Where the command line keeps what the extension keeps in globalState: the config folder of each platform, a file
// written whole or not at all, and the service profile kept once two answers agree (as ServiceProfiles does).
import { strict as assert } from 'node:assert';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ModelListProfile } from '../../src/api/profileFormat';
import { configFolder } from '../../src/cli/configFolder';
import { FileProfileBook } from '../../src/cli/fileProfileBook';
import { FileState } from '../../src/cli/fileState';
import { JobFile } from '../../src/cli/jobFile';
import type { JobRecord } from '../../src/jobs/jobRecord';
import { JOBS_KEY_PREFIX, SERVICE_PROFILES_KEY } from '../../src/storageKeys';
import { WRITER_SCOPE } from './stateWriter';

const job = (id: string): JobRecord => ({
  id,
  kind: 'evaluation',
  scope: WRITER_SCOPE,
  state: 'queued',
  createdAt: 1,
  updatedAt: 1,
  modelName: 'm',
  datasetName: 'd',
});

/** The job ids the state file holds for WRITER_SCOPE, read from disk. */
function idsInFile(file: string): string[] {
  const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { id: string }[]>;
  return (all[`${JOBS_KEY_PREFIX}${WRITER_SCOPE}`] ?? []).map((j) => j.id).sort();
}

/** A message from a writer child, or its end. */
function nextMessage(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the writer ended (${code}) before it answered`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as string);
    });
  });
}

describe('the command line state', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'hr-cli-state-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('lives in the platform config folder (XDG on Linux, an absolute XDG_CONFIG_HOME only)', () => {
    assert.equal(configFolder({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/a'), path.join('/x/cfg', 'hosted-reasoning'));
    assert.equal(configFolder({}, 'linux', '/home/a'), path.join('/home/a', '.config', 'hosted-reasoning'));
    assert.equal(configFolder({ XDG_CONFIG_HOME: 'relative' }, 'linux', '/home/a'), path.join('/home/a', '.config', 'hosted-reasoning'));
    assert.equal(configFolder({}, 'darwin', '/Users/a'), path.join('/Users/a', 'Library', 'Application Support', 'hosted-reasoning'));
    assert.equal(
      configFolder({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32', 'C:\\Users\\a'),
      path.join('C:\\Users\\a\\AppData\\Roaming', 'hosted-reasoning'),
    );
  });

  it("FileState: get/update like a Memento, written by rename (no temporary file left), another process's keys kept", async () => {
    const file = path.join(dir, 'sub', 'state.json');
    const state = await FileState.open(file);
    assert.equal(state.get('a'), undefined);
    assert.equal(state.get('a', 7), 7);
    await state.update('a', { n: 1 });
    assert.deepEqual(state.get('a'), { n: 1 });
    // Another process writes key b meanwhile: this one's next write keeps it.
    const other = await FileState.open(file);
    await other.update('b', 'theirs');
    await state.update('a', { n: 2 });
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { a: { n: 2 }, b: 'theirs' });
    await state.update('a', undefined);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { b: 'theirs' });
    assert.deepEqual(readdirSync(path.dirname(file)), ['state.json']);
    if (process.platform !== 'win32') assert.equal((await import('node:fs')).statSync(file).mode & 0o077, 0, 'only its owner reads it');
  });

  it('FileState: a file that is not a JSON object is set aside with a reason, and written again at the next update', async () => {
    const file = path.join(dir, 'state.json');
    writeFileSync(file, '{"half": ');
    const state = await FileState.open(file);
    assert.match(state.problem ?? '', /not valid JSON/);
    assert.equal(state.get('half'), undefined);
    await state.update('k', 1);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { k: 1 });
  });

  it('FileState: concurrent updates of one process are made one after another, none lost', async () => {
    const state = await FileState.open(path.join(dir, 'state.json'));
    await Promise.all(Array.from({ length: 10 }, (_, i) => state.update(`k${i}`, i)));
    const reread = await FileState.open(path.join(dir, 'state.json'));
    assert.deepEqual([...reread.keys()].sort(), Array.from({ length: 10 }, (_, i) => `k${i}`).sort());
  });

  it("two runs that opened the file before either wrote keep each other's job records (a read-modify-write of the file)", async () => {
    const file = path.join(dir, 'state.json');
    const one = new JobFile(await FileState.open(file), WRITER_SCOPE);
    const two = new JobFile(await FileState.open(file), WRITER_SCOPE);
    await one.put(job('one'));
    await two.put(job('two'));
    await one.patch(one.find('one')!, { state: 'running' });
    assert.deepEqual(idsInFile(file), ['one', 'two']);
    await one.reload();
    assert.deepEqual(
      one
        .list()
        .map((j) => j.id)
        .sort(),
      ['one', 'two'],
      'reload reads what the other wrote',
    );
  });

  it('processes recording jobs at once in one state file keep every record (the write is under a cross-process lock)', async function () {
    this.timeout(120_000);
    const file = path.join(dir, 'state.json');
    const writers = ['a', 'b', 'c'].map((name) =>
      fork(path.join(__dirname, 'stateWriter.js'), [file, name, '40'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
    try {
      // Each has opened the file (read it once) before any writes.
      assert.deepEqual(await Promise.all(writers.map(nextMessage)), ['ready', 'ready', 'ready']);
      const done = writers.map(nextMessage);
      for (const w of writers) w.send('go');
      assert.deepEqual(await Promise.all(done), ['done', 'done', 'done']);
    } finally {
      for (const w of writers) if (w.exitCode === null) w.kill();
    }
    const expected = ['a', 'b', 'c'].flatMap((n) => Array.from({ length: 40 }, (_, i) => `${n}-${i}`)).sort();
    assert.deepEqual(idsInFile(file), expected);
    assert.deepEqual(readdirSync(dir), ['state.json'], 'no lock or temporary file left');
  });

  it('the profile book keeps an inferred part once a second answer agrees (across runs), never one a given profile covers', async () => {
    const origin = 'https://svc.example';
    const file = path.join(dir, 'state.json');
    const inferred: ModelListProfile = { lists: [{ names: 'models[].model_name' }], by: 'inferred' };
    const run = async (given?: Parameters<FileProfileBook['keepAll']>[0]) => {
      const book = new FileProfileBook(await FileState.open(file), origin, given, { note: () => undefined });
      book.learned('modelList', { profile: inferred, change: 'inferred' });
      await book.settled();
      return book;
    };
    await run();
    assert.equal((await FileState.open(file)).get(SERVICE_PROFILES_KEY), undefined, 'one answer keeps nothing');
    const second = await run();
    assert.deepEqual(second.kept()?.modelList, inferred);
    assert.deepEqual(
      second.describe().map((p) => [p.part, p.by]),
      [['modelList', 'inferred']],
    );

    rmSync(file);
    const given = { modelList: { lists: [{ names: 'data[].id' }], by: 'setting' as const } };
    await run(given);
    const withGiven = await run(given);
    assert.equal(withGiven.kept(), undefined, 'a part given by --profile is read by it, not learned');
    assert.deepEqual(withGiven.profile('modelList'), given.modelList);
  });
});
