// The pre-flight read in the finetune wizard's review (issue 29): each file's pages or paragraphs and words, a warning
// on a scanned PDF, *Preview the Text* opening a read-only document, and the extension host answering while a
// 500-page PDF is read (judged by the order of events, never by a time).
import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMANDS } from '../../src/contributions';
import { runFinetuneWizard } from '../../src/features/finetune/finetuneWizard';
import { preflightRead, type PreflightFile } from '../../src/features/finetune/preflight';
import { previewSourceText, SOURCE_TEXT_SCHEME } from '../../src/features/finetune/sourceTextPreview';
import { writeDocx, writePdf, writeTextlessPdf } from '../service/fixtures';
import { writeTextPagesPdf } from '../unit/builders/sourceDocuments';
import { formatBytes as sizeOf } from '../../src/util/byteSize';
import { answeringInputBoxes, capturingQuickPicks, waitFor } from './helpers';
import { useRig } from './rig';

/** The name of a quick-pick item's theme icon (its iconPath), if it has one. */
const iconOf = (item: vscode.QuickPickItem): string | undefined =>
  item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined;

const rig = useRig();

describe('finetune pre-flight read', () => {
  let folder: string;

  beforeEach(async () => {
    const workspace = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(workspace, 'no workspace folder');
    folder = await fsp.mkdtemp(path.join(workspace, 'suite-preflight-'));
  });
  afterEach(async () => {
    await rig.clearKey();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await fsp.rm(folder, { recursive: true, force: true });
  });

  it("shows each file's pages and words in the review, warns on the scanned one, and previews the text read-only", async function () {
    this.timeout(60_000);
    const files: (PreflightFile & { size: number })[] = [];
    const add = async (name: string, write: (p: string) => Promise<void>): Promise<void> => {
      const p = path.join(folder, name);
      await write(p);
      files.push({ path: p, kind: name.endsWith('.pdf') ? 'pdf' : 'docx', label: name, size: (await fsp.stat(p)).size });
    };
    await add('handbook.pdf', (p) => writePdf(p, ['Expenses are filed within thirty days of the trip.']));
    await add('scan.pdf', (p) => writeTextlessPdf(p, 2));
    await add('faq.docx', (p) => writeDocx(p, ['How do I book a flight?', 'Use the travel portal.']));

    await capturingQuickPicks(async (picks) => {
      const wizard = runFinetuneWizard({
        files: files.map((f) => ({ id: f.path, label: f.label, kind: f.kind, size: f.size })),
        defaults: { numQs: 1, mode: 'pretraining', useCase: '', maxFileBytes: 1e9, maxFiles: 10 },
        loadModels: () => Promise.resolve([]),
        initial: { baseModel: 'oss-reasoner-8b', modelName: 'suite-preflight', numQs: 1, mode: 'pretraining', useCase: '' },
        startAt: 'summary',
        preflight: () => preflightRead(files),
        previewText: (results) => previewSourceText(rig.api.services.context, results),
      });
      const review = await waitFor('the review with the counts', () =>
        picks[0]?.items.some((i) => i.description?.includes('words')) && !picks[0].busy ? picks[0] : undefined,
      );
      const row = (name: string): string | undefined => review.items.find((i) => i.label.endsWith(name))?.description;
      assert.equal(row('handbook.pdf'), `PDF, ${sizeOf(files[0]!.size)} — 1 page, 9 words`);
      assert.equal(row('scan.pdf'), `PDF, ${sizeOf(files[1]!.size)} — 2 pages, 0 words`);
      assert.equal(row('faq.docx'), `DOCX, ${sizeOf(files[2]!.size)} — 2 paragraphs, 10 words`);
      const warnings = review.items.filter((i) => iconOf(i) === 'warning').map((i) => i.label);
      assert.equal(warnings.length, 2, warnings.join('\n'));
      assert.match(warnings[0]!, /scan\.pdf looks scanned: 0 words on 2 pages.*will likely read nothing/);
      assert.match(warnings[1]!, /1 questions asked of 19 words of text: 19 words per question/);

      const preview = review.items.find((i) => i.label === 'Preview the Text' && iconOf(i) === 'eye');
      assert.ok(preview, 'no Preview the Text item');
      // Accepting other than the first item is not reliable: filter the list down to it, and accept once the workbench
      // reports it active.
      review.value = 'Preview the Text';
      await waitFor('the preview item active', () => (review.activeItems[0]?.label === preview.label ? true : undefined));
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      const editor = await waitFor('the preview', () =>
        vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === SOURCE_TEXT_SCHEME),
      );
      const text = editor.document.getText();
      assert.match(text, /==== handbook\.pdf \(1 page, 9 words\) ====\n\nExpenses are filed within thirty days of the trip\./);
      assert.match(text, /==== scan\.pdf \(2 pages, 0 words\) ====\n\n\(No text found\.\)/);
      assert.match(text, /==== faq\.docx \(2 paragraphs, 10 words\) ====\n\nHow do I book a flight\?\n\nUse the travel portal\./);
      // Read-only: a content provider's document, on a scheme with no file system behind it, so nothing can write it.
      assert.equal(vscode.workspace.fs.isWritableFileSystem(SOURCE_TEXT_SCHEME), undefined);
      assert.equal(await editor.document.save(), false);

      review.hide();
      assert.equal(await wizard, undefined);
    });
  });

  it('keeps the extension host answering while a 500-page PDF is read', async function () {
    this.timeout(120_000);
    const pdf = path.join(folder, 'long.pdf');
    await writeTextPagesPdf(pdf, 500);
    const events: string[] = [];
    const ping = vscode.commands.registerCommand('hostedReasoning.test.preflightPing', () => events.push('command answered'));
    try {
      const read = preflightRead([{ path: pdf, kind: 'pdf', label: 'long.pdf' }]).then((r) => {
        events.push('read done');
        return r;
      });
      await vscode.commands.executeCommand('hostedReasoning.test.preflightPing');
      const [result] = await read;
      assert.equal(result?.pages, 500);
      assert.equal(result?.unreadable, undefined);
      assert.deepEqual(events, ['command answered', 'read done']);
    } finally {
      ping.dispose();
    }
  });
  it('reads the files of an Explorer selection in the review of Create Finetuned Model, before any upload', async function () {
    this.timeout(90_000);
    const handbook = path.join(folder, 'handbook.pdf');
    const scan = path.join(folder, 'scan.pdf');
    await writePdf(handbook, ['Expenses are filed within thirty days of the trip.']);
    await writeTextlessPdf(scan, 2);
    await rig.useKey('demo-key');
    const since = rig.emu.received.length;
    const uris = [vscode.Uri.file(handbook), vscode.Uri.file(scan)];
    await capturingQuickPicks((picks) =>
      answeringInputBoxes(['suite-preflight-command', '1', ''], async (asked) => {
        let outcome: unknown;
        const done = vscode.commands.executeCommand(COMMANDS.finetune, uris[0], uris);
        void done.then((o) => (outcome = o));
        // Base model, then mode: the first item of each (the list's own order) is accepted.
        for (const n of [0, 1]) {
          const pick = await waitFor(
            `quick pick ${n + 1}`,
            () => {
              const p = picks[n];
              const first = p?.items.find((i) => i.kind !== vscode.QuickPickItemKind.Separator);
              return p && !p.busy && first ? { p, first } : undefined;
            },
            { describe: () => ({ picks: picks.map((p) => [p.step, p.busy, p.items.map((i) => i.label)]), asked, outcome }) },
          );
          // The workbench may not show the list yet when the extension host has it: accept until the step is left
          // (the steps after each of these two are input boxes the test answers, which an extra accept cannot reach).
          let left = false;
          const hidden = pick.p.onDidHide(() => (left = true));
          await waitFor(
            `step ${n + 1} accepted`,
            async () => {
              pick.p.activeItems = [pick.first];
              await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
              return left || picks.length > n + 1 ? true : undefined;
            },
            { intervalMs: 200 },
          );
          hidden.dispose();
        }
        const review = await waitFor('the review with the counts', () =>
          picks[2]?.items.some((i) => i.description?.includes('words')) && !picks[2].busy ? picks[2] : undefined,
        );
        const rows = review.items.filter((i) => iconOf(i) === 'file').map((i) => `${i.label} ${i.description ?? ''}`);
        assert.equal(rows.length, 2, rows.join('\n'));
        assert.match(rows[0]!, /handbook\.pdf PDF, .* — 1 page, 9 words$/);
        assert.match(rows[1]!, /scan\.pdf PDF, .* — 2 pages, 0 words$/);
        assert.ok(review.items.some((i) => iconOf(i) === 'warning' && /^.*scan\.pdf looks scanned/.test(i.label)));
        review.hide();
        assert.deepEqual(await done, { status: 'cancelled' });
      }),
    );
    // Read on this machine only: nothing went to the service but the model list.
    assert.deepEqual(
      rig.emu.received.slice(since).filter((r) => r.method !== 'GET'),
      [],
    );
  });
});
