// An @hosted answer as the workbench itself renders it, in the real Chat view: a question is sent the way a person
// sends one (the Chat view's own `workbench.action.chat.open` with the query), the emulator answers with the ways past
// a line-based neutraliser found in the security review (issue 26, finding 2), each carrying a remote image that
// points at a local server counting requests, and the Chat view's DOM is read through the runner's browser
// (test/runners/pageBridge.ts). The answer is known to be rendered when its last word shows; then no image element
// may point at the server, no request may have reached it, and every link must show its own target.
// Needs the server runner's browser: under test:electron (no bridge) it is skipped. Ask in Chat (src/features/chat/askInChat.ts)
// is read there too: the input it leaves and the model it picks.
import * as assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import { CHAT_VENDOR, COMMANDS } from '../../src/contributions';
import { waitFor } from './helpers';
import { useRig } from './rig';
import { readChatView, PAGE_BRIDGE_ENV, type ChatView } from './webviewPage';
import { EVERY_HOST_TAG } from './suiteResult';

const rig = useRig();

/** A loopback HTTP server that answers every request with a 1×1 PNG and remembers its path. */
async function countingServer(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'image/png', 'Access-Control-Allow-Origin': '*' });
    res.end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The five ways past the line-based neutraliser (issue 26, finding 2), each with an image at `img` and a word to find. */
function bypassAnswer(img: string, last: string): string {
  // In this order each is live in CommonMark: a closing ``` after the fourth, or before the others, would open a
  // fence (it may interrupt a paragraph) that holds the rest as code.
  return [
    'One \\`[update your key](https://evil.example/login)\\` and \\`[open it](file:///etc/passwd)\\`.',
    `Two \\\`![](${img}/two.png?u=x)\``,
    `Three \`a\nb\` ![](${img}/three.png) \`c\``,
    `Also <img src="${img}/html.png"> and <${img}/auto.png>.`,
    `\`\`\`js\`\n![](${img}/four.png)`,
    `- \`\`\`\n  x\n  \`\`\`\n\n![](${img}/five.png)`,
    last,
  ].join('\n\n');
}

describe(`the Chat view, as rendered by the workbench ${EVERY_HOST_TAG}`, () => {
  afterEach(() => rig.emu.configure({ responseText: undefined, reasoning: 'none' }));

  it('renders an @hosted answer with no remote image requested, and every link showing its own target', async function () {
    if (!process.env[PAGE_BRIDGE_ENV]) this.skip();
    // VS Code 1.104's server build shows no Chat view (seen: `workbench.action.chat.open` opens none, so there is no
    // `.interactive-session` in the page); its participants and `vscode.lm` work, but nothing renders an answer there.
    if (vscode.version.startsWith('1.104.')) this.skip();
    this.timeout(90_000);
    const server = await countingServer();
    try {
      await rig.useKey('demo-key');
      await vscode.lm.selectChatModels({ vendor: CHAT_VENDOR });
      const last = `Answer-end-${Date.now()}`;
      rig.emu.configure({ responseText: bypassAnswer(server.url, last) });
      await vscode.commands.executeCommand('workbench.action.chat.open', {
        query: '@hosted Show me the pictures',
        isPartialQuery: false,
        // Chat sends nothing, even to a participant, without a model picked (1.139: "Language model unavailable").
        modelSelector: { vendor: CHAT_VENDOR, id: 'oss-reasoner-8b' },
      });
      let seen: ChatView | undefined;
      const shown = await waitFor(
        'the answer rendered in the Chat view',
        async () => {
          seen = await readChatView();
          return seen?.text.includes(last) ? seen : undefined;
        },
        { timeoutMs: 60_000, intervalMs: 250, describe: () => seen },
      );
      // Reported before the assertions, so a run records what the workbench did (the report's control).
      console.log(
        `[chat view] ${vscode.version}: ${JSON.stringify({ text: shown.text, images: shown.images, links: shown.links, requests: server.requests })}`,
      );
      assert.deepEqual(
        shown.images.filter((src) => src.includes(server.url)),
        [],
        'an image element points at a remote address',
      );
      // VS Code's own controls (references, Redo) are links without a target.
      const misleading = shown.links.filter((l) => l.href !== '' && l.text.trim() !== l.href);
      assert.deepEqual(misleading, [], 'a link shows other text than its target');
      assert.deepEqual(server.requests, [], 'the image server was asked');
      assert.match(shown.text, /two\.png/, 'the image shows its address as text');
    } finally {
      await server.close();
    }
  });

  it('Ask in Chat opens the Chat view with @hosted in its input and the model asked for picked, in Ask mode', async function () {
    if (!process.env[PAGE_BRIDGE_ENV]) this.skip();
    if (vscode.version.startsWith('1.104.')) this.skip(); // no Chat view (above)
    this.timeout(60_000);
    await rig.useKey('demo-key');
    const model = 'oss-reasoner-70b';
    await vscode.commands.executeCommand(COMMANDS.askInChat, { modelName: model });
    let seen: ChatView | undefined;
    await waitFor(
      'the Chat view with @hosted in its input and our model picked',
      async () => {
        seen = await readChatView();
        return seen && seen.input.replace(/\s+/g, ' ').trim() === '@hosted' && seen.model.includes(model) && seen.mode.trim() === 'Ask'
          ? true
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 250, describe: () => seen && { input: seen.input, model: seen.model, mode: seen.mode } },
    );
  });
});
