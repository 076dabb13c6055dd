// Finetune jobs end to end with real documents: upload (multipart, streamed to disk), file checks by magic bytes,
// real text extraction (pdfjs-dist / mammoth), the status walk, the resulting custom model and GGUF artifact.
import { strict as assert } from 'node:assert';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractText } from '../service/documents';
import { readGgufHeader, startEmulator, type Emulator } from '../service/emulator';
import { writeBrokenPdf, writeDocx, writeLargePdf, writePdf, writeTextlessPdf } from '../service/fixtures';
import { BASE, getJson, headers, KEY, sleep, waitFor } from './emulator-helpers';

const START = '/cr/generate_questions';

interface JobView {
  job_id: string;
  status: string;
  progress: number;
  message: string;
  model_name: string;
  created_at: string;
  updated_at: string;
  error?: string;
  fine_tuned_model?: string;
}

/** The emulator's finetune duration in these tests: each job takes well under a second. */
const DURATION_MS = 400;

describe('emulator: finetune jobs with real documents', function () {
  let em: Emulator;
  let dir: string;
  let dataDir: string;
  const pdfText = ['Llamas are domesticated South American camelids.', 'The café serves crème brûlée on Tuesdays.'];
  const docxText = ['Alpacas are smaller than llamas.', 'Zweiter Absatz über Öl und Wärme.'];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'emulator-ft-test-'));
    dataDir = join(dir, 'data');
    em = await startEmulator({ finetuneDurationMs: DURATION_MS, artifactBytes: 300 * 1024, dataDir });
    await writePdf(join(dir, 'handbook.pdf'), pdfText);
    await writeDocx(join(dir, 'notes.docx'), docxText);
    await writeTextlessPdf(join(dir, 'scan.pdf'));
    await writeBrokenPdf(join(dir, 'broken.pdf'));
    await writeFile(join(dir, 'plain.txt'), 'just some text, not a PDF\n');
  });
  after(async () => {
    await em.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function form(files: [string, string][], fields: Record<string, string>): Promise<FormData> {
    const fd = new FormData();
    for (const [source, name] of files) {
      fd.append('files', new Blob([await readFile(join(dir, source))]), name);
    }
    for (const [k, v] of Object.entries(fields)) {
      fd.append(k, v);
    }
    return fd;
  }

  const fields = (modelName: string): Record<string, string> => ({
    numQs: '40',
    mode: 'pretraining',
    modelName,
    modelType: BASE,
    use_case: 'support bot',
  });

  async function start(
    files: [string, string][],
    f: Record<string, string>,
    key = KEY,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${em.url}${START}`, { method: 'POST', headers: headers(key), body: await form(files, f) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  async function poll(jobId: string): Promise<JobView[]> {
    const views: JobView[] = [];
    for (;;) {
      const { status, body } = await getJson<JobView>(`${em.url}/cr/generate_questions_status?job_id=${jobId}`);
      assert.equal(status, 200);
      views.push(body);
      if (body.status === 'completed' || body.status === 'failed') {
        return views;
      }
      await sleep(20);
    }
  }

  /**
   * Upload folders are removed when a job ends (just after its final status is visible). The bound is a hang guard
   * only: on a loaded machine the removal has taken over 2 s.
   */
  async function waitForNoUploads(): Promise<void> {
    const end = Date.now() + 15_000;
    while ((await readdir(join(dataDir, 'uploads')).catch(() => [])).length > 0) {
      assert.ok(Date.now() < end, 'uploads left behind');
      await sleep(20);
    }
  }

  it('fixtures: the PDF and DOCX hold real, extractable text', async () => {
    const pdf = await extractText('pdf', join(dir, 'handbook.pdf'));
    assert.match(pdf.text, /Llamas are domesticated South American camelids\./);
    assert.match(pdf.text, /crème brûlée/);
    const docx = await extractText('docx', join(dir, 'notes.docx'));
    assert.equal(docx.text, docxText.join('\n\n'));
  });

  it('a job from a PDF and a DOCX walks queued -> extracting -> generating -> training -> completed', async () => {
    const { status, body } = await start(
      [
        ['handbook.pdf', 'handbook.pdf'],
        ['notes.docx', 'notes.docx'],
      ],
      fields('support-v1'),
    );
    assert.equal(status, 200);
    assert.equal(body.status, 'queued');
    assert.match(String(body.job_id), /^[0-9a-f-]{36}$/);
    const views = await poll(String(body.job_id));
    const last = views.at(-1);
    assert.ok(last);
    assert.equal(last.status, 'completed', JSON.stringify(last));
    assert.equal(last.progress, 100);
    assert.equal(last.model_name, 'support-v1');
    assert.match(last.message, /Generated 40\/40 questions/);
    const order = ['queued', 'extracting', 'generating', 'training', 'completed'];
    const seen = views.map((v) => v.status).filter((s, i, a) => a[i - 1] !== s);
    assert.deepEqual(
      seen,
      order.filter((s) => seen.includes(s)),
      'statuses in order',
    );
    assert.ok(seen.includes('generating') && seen.includes('training'));
    for (let i = 1; i < views.length; i++) {
      assert.ok(views[i]!.progress >= views[i - 1]!.progress, 'progress never goes back');
    }
    const generating = views.find((v) => v.status === 'generating');
    assert.match(generating?.message ?? '', /^Generated \d+\/40 questions$/);
    assert.ok(Date.parse(last.updated_at) >= Date.parse(last.created_at));

    const models = await getJson<{ models: { model_name: string; type: string; base_model?: string; created_at?: string }[] }>(
      `${em.url}/cr/get_allowed_models`,
    );
    const entry = models.body.models.find((m) => m.model_name === 'support-v1');
    assert.ok(entry);
    assert.deepEqual(entry, { model_name: 'support-v1', type: 'custom', base_model: BASE, created_at: entry.created_at });
    assert.ok(!Number.isNaN(Date.parse(entry.created_at ?? '')));
    const path = em.artifactPath('support-v1');
    assert.ok(path);
    assert.equal((await stat(path)).size, 300 * 1024);
    const header = await readGgufHeader(path);
    assert.equal(header.metadata['general.name'], 'support-v1');
    assert.equal(header.metadata['general.base_model'], BASE);
    await waitForNoUploads();
  });

  it('409 when the model exists or a job for it is running', async () => {
    const exists = await start([['handbook.pdf', 'handbook.pdf']], fields('support-v1'));
    assert.equal(exists.status, 409);
    assert.match(String(exists.body.detail), /already exists/);
    const first = await start([['handbook.pdf', 'handbook.pdf']], fields('busy-model'));
    assert.equal(first.status, 200);
    const second = await start([['handbook.pdf', 'handbook.pdf']], fields('busy-model'));
    assert.equal(second.status, 409);
    assert.match(String(second.body.detail), /already running/);
    const other = await start([['handbook.pdf', 'handbook.pdf']], { ...fields('busy-model'), modelType: 'oss-coder-14b' }, 'other-key');
    assert.equal(other.status, 200, 'model names are per key');
    await poll(String(first.body.job_id));
  });

  it('holdFinetunes: a job stays in its phase while held (four times its whole duration), and goes on when let go', async () => {
    em.configure({ holdFinetunes: true });
    let held = true;
    try {
      const { body } = await start([['handbook.pdf', 'handbook.pdf']], fields('held-model'));
      const jobId = String(body.job_id);
      await sleep(1_600); // the whole job takes 400 ms when not held
      const { body: view } = await getJson<JobView>(`${em.url}/cr/generate_questions_status?job_id=${jobId}`);
      assert.equal(view.status, 'queued', 'held in its first phase');
      em.configure({ holdFinetunes: false });
      held = false;
      assert.equal((await poll(jobId)).at(-1)?.status, 'completed');
    } finally {
      if (held) em.configure({ holdFinetunes: false });
    }
  });

  it('rushFinetunes: a running job ends its phases at once, however long they were planned', async () => {
    em.configure({ finetuneDurationMs: 600_000 });
    try {
      const { body } = await start([['handbook.pdf', 'handbook.pdf']], fields('rushed-model'));
      const jobId = String(body.job_id);
      await sleep(300);
      const { body: view } = await getJson<JobView>(`${em.url}/cr/generate_questions_status?job_id=${jobId}`);
      assert.equal(view.status, 'queued', 'a ten-minute job is still in its first phase');
      em.configure({ rushFinetunes: true });
      assert.equal((await poll(jobId)).at(-1)?.status, 'completed');
    } finally {
      em.configure({ rushFinetunes: false, finetuneDurationMs: DURATION_MS });
    }
  });

  it('renameTunedModels: the finished job names the model it made (fine_tuned_model), listed under that name only', async () => {
    em.configure({ renameTunedModels: true });
    try {
      const { body } = await start([['handbook.pdf', 'handbook.pdf']], fields('renamed-v1'));
      const jobId = String(body.job_id);
      const views = await poll(jobId);
      assert.deepEqual(
        views.filter((v) => v.status !== 'completed').map((v) => v.fine_tuned_model),
        views.filter((v) => v.status !== 'completed').map(() => undefined),
        'named only once finished',
      );
      const last = views.at(-1);
      const made = `ft:${BASE}:renamed-v1:${jobId.slice(0, 8)}`;
      assert.equal(last?.fine_tuned_model, made);
      assert.equal(last.model_name, 'renamed-v1', 'the name asked for is still answered');
      const models = await getJson<{ models: { model_name: string }[] }>(`${em.url}/cr/get_allowed_models`);
      const names = models.body.models.map((m) => m.model_name);
      assert.ok(names.includes(made) && !names.includes('renamed-v1'), names.join(', '));
      assert.ok(em.artifactPath(made));
    } finally {
      em.configure({ renameTunedModels: false });
    }
  });

  it('a .txt renamed .pdf is rejected with 422 naming the file; a PDF named .docx too', async () => {
    const renamed = await start([['plain.txt', 'notes.pdf']], fields('bad-1'));
    assert.equal(renamed.status, 422);
    assert.deepEqual(renamed.body, { detail: "File 'notes.pdf' is not a PDF document" });
    const wrongZip = await start([['handbook.pdf', 'report.docx']], fields('bad-2'));
    assert.equal(wrongZip.status, 422);
    assert.match(String(wrongZip.body.detail), /File 'report\.docx' is not a DOCX document/);
  });

  it('unsupported extensions are 415 naming the file; no files is 422', async () => {
    const txt = await start([['plain.txt', 'plain.txt']], fields('bad-3'));
    assert.equal(txt.status, 415);
    assert.match(String(txt.body.detail), /'plain\.txt'/);
    const none = await start([], fields('bad-4'));
    assert.equal(none.status, 422);
    assert.deepEqual((none.body.detail as { loc: string[] }[])[0]?.loc, ['body', 'files']);
  });

  it('validates the form fields (FastAPI 422 list)', async () => {
    const bad = await start([['handbook.pdf', 'handbook.pdf']], { numQs: '0', mode: 'bogus', modelName: 'has space', modelType: 'nope' });
    assert.equal(bad.status, 422);
    const locs = (bad.body.detail as { loc: string[] }[]).map((d) => d.loc[1]).sort();
    assert.deepEqual(locs, ['mode', 'modelName', 'modelType', 'numQs']);
    const notInt = await start([['handbook.pdf', 'handbook.pdf']], { ...fields('ok-name'), numQs: 'ten' });
    assert.equal(notInt.status, 422);
    assert.equal((notInt.body.detail as { type: string }[])[0]?.type, 'int_parsing');
    const qa = await start([['handbook.pdf', 'handbook.pdf']], { ...fields('qa-mode'), mode: 'qa', numQs: '1000' });
    assert.equal(qa.status, 200);
    const json = await fetch(`${em.url}${START}`, {
      method: 'POST',
      headers: headers(KEY, { 'Content-Type': 'application/json' }),
      body: '{}',
    });
    assert.equal(json.status, 422);
    await json.arrayBuffer();
    await poll(String(qa.body.job_id));
  });

  it('a PDF without text fails the job with "<file>: <reason>"', async () => {
    const { body } = await start(
      [
        ['handbook.pdf', 'good.pdf'],
        ['scan.pdf', 'scan.pdf'],
      ],
      fields('scan-model'),
    );
    const views = await poll(String(body.job_id));
    const last = views.at(-1);
    assert.ok(last);
    assert.equal(last.status, 'failed');
    assert.match(last.error ?? '', /^scan\.pdf: no extractable text/);
    const models = await getJson<{ models: { model_name: string }[] }>(`${em.url}/cr/get_allowed_models`);
    assert.ok(!models.body.models.some((m) => m.model_name === 'scan-model'));
    const retry = await start([['handbook.pdf', 'good.pdf']], fields('scan-model'));
    assert.equal(retry.status, 200, 'a failed job does not block the name');
    await poll(String(retry.body.job_id));
  });

  it('a PDF that does not parse fails the job naming the file', async () => {
    const { body } = await start([['broken.pdf', 'broken.pdf']], fields('broken-model'));
    const views = await poll(String(body.job_id));
    const last = views.at(-1);
    assert.ok(last);
    assert.equal(last.status, 'failed');
    assert.match(last.error ?? '', /^broken\.pdf: .+/);
  });

  it('job ids are per key: 404 for another key, 422 without job_id', async () => {
    const { body } = await start([['handbook.pdf', 'handbook.pdf']], fields('scoped-model'));
    const foreign = await getJson(`${em.url}/cr/generate_questions_status?job_id=${String(body.job_id)}`, 'other-key');
    assert.equal(foreign.status, 404);
    const missing = await getJson(`${em.url}/cr/generate_questions_status`);
    assert.equal(missing.status, 422);
    await poll(String(body.job_id));
  });

  it('an upload aborted by the client creates no job and leaves no files behind', async () => {
    const boundary = 'emulatorboundary';
    await waitForNoUploads();
    const head = [
      `--${boundary}\r\nContent-Disposition: form-data; name="numQs"\r\n\r\n5\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="modelName"\r\n\r\naborted-model\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="modelType"\r\n\r\n${BASE}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
    ].join('');
    await new Promise<void>((resolve) => {
      const req = http.request(`${em.url}${START}`, {
        method: 'POST',
        agent: false,
        headers: headers(KEY, { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(50 * 1024 * 1024) }),
      });
      req.on('error', () => resolve());
      req.write(head);
      req.write(Buffer.alloc(512 * 1024, 0x20), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 100);
      });
    });
    await waitFor(() => em.received.some((r) => r.path === START && r.aborted === true), 15_000, 'aborted upload recorded');
    await waitForNoUploads();
    const retry = await start([['handbook.pdf', 'handbook.pdf']], fields('aborted-model'));
    assert.equal(retry.status, 200, 'no job was created for the aborted upload');
    await poll(String(retry.body.job_id));
  });

  it('a large PDF (over 20 MB) is extracted from its first pages only and the job completes', async () => {
    const big = join(dir, 'big.pdf');
    await writeLargePdf(big, 24 * 1024 * 1024, ['Large file marker text for the benchmark.']);
    assert.equal((await stat(big)).size, 24 * 1024 * 1024);
    const extracted = await extractText('pdf', big);
    assert.match(extracted.text, /Large file marker text/);
    const { status, body } = await start([['big.pdf', 'big.pdf']], fields('large-model'));
    assert.equal(status, 200);
    const views = await poll(String(body.job_id));
    assert.equal(views.at(-1)?.status, 'completed', JSON.stringify(views.at(-1)));
  });
});
