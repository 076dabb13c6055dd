// The server runner's side of the in-editor suite's view into webview pages (test/suite/webviewPage.ts): a loopback
// HTTP endpoint, under a random path, that reads or acts on the one webview frame holding a given test id, in the
// browser the runner opened. It acts only on elements named by `data-testid`, with Playwright's own waits; it runs no
// script sent to it: the only script it adds to a page is axe-core, from this checkout's node_modules. It also reads
// (never acts on) the workbench's Chat view, which has no test ids: what its answers show, their images and links, for
// the test that checks what Chat renders of an answer.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Frame } from 'playwright-core';
import type {
  AxeViolation,
  ChatView,
  ChatViewRequest,
  ElementView,
  PageAnswer,
  PagePaint,
  PageRequest,
  PageView,
  Paint,
} from '../suite/webviewPage';

const ACTION_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 64 * 1024;

export interface PageBridge {
  /** The address the suite posts to (HR_PAGE_BRIDGE). */
  readonly url: string;
  close(): Promise<void>;
}

/** The frames (across every page of the browser) holding `[data-testid=pageWith]`. */
async function framesWith(browser: BrowserContext, pageWith: string): Promise<Frame[]> {
  const found: Frame[] = [];
  for (const page of browser.pages()) {
    for (const frame of page.frames()) {
      const has = await frame
        .evaluate((id) => document.querySelector(`[data-testid="${CSS.escape(id)}"]`) !== null, pageWith)
        .catch(() => false); // a frame that went away meanwhile
      if (has) found.push(frame);
    }
  }
  return found;
}

async function readView(frame: Frame): Promise<PageView> {
  return frame.evaluate(() => {
    const view: Record<string, ElementView[]> = {};
    for (const el of Array.from(document.querySelectorAll('[data-testid]'))) {
      const id = el.getAttribute('data-testid') ?? '';
      const details = el.closest('details');
      const entry: ElementView = { text: el.textContent ?? '', visible: el.checkVisibility() };
      if (details) entry.open = details.open;
      if (el instanceof HTMLInputElement) entry.value = el.type === 'checkbox' ? (el.checked ? 'on' : 'off') : el.value;
      else if (el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) entry.value = el.value;
      const control = el instanceof HTMLButtonElement || el instanceof HTMLInputElement || el instanceof HTMLSelectElement;
      if (control) entry.disabled = el.disabled;
      if (document.activeElement === el) entry.focused = true;
      (view[id] ??= []).push(entry);
    }
    return view;
  });
}

async function readPaint(frame: Frame, testId: string): Promise<PagePaint> {
  return frame.evaluate((id) => {
    const paint = (el: Element): Paint => {
      const s = getComputedStyle(el);
      return { fill: s.fill, stroke: s.stroke, color: s.color, background: s.backgroundColor, borderColor: s.borderTopColor };
    };
    return {
      bodyClass: document.body.className,
      pageBackground: getComputedStyle(document.body).backgroundColor,
      elements: Array.from(document.querySelectorAll(`[data-testid="${CSS.escape(id)}"]`)).map(paint),
    };
  }, testId);
}

let axeSource: string | undefined;

/** axe-core's violations in the frame (its default rules: WCAG 2 A and AA, and its best practices). */
async function runAxe(frame: Frame): Promise<AxeViolation[]> {
  axeSource ??= fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the debugging protocol, so the page's content security policy does not refuse it.
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(axeSource);
  return frame.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })),
    }));
  });
}

/** The workbench's Chat view (`.interactive-session`, the chat widget in 1.104 and 1.139), read from every page. */
async function readChat(browser: BrowserContext): Promise<PageAnswer> {
  for (const page of browser.pages()) {
    const chat = await page
      .mainFrame()
      .evaluate((): ChatView | undefined => {
        const session = document.querySelector('.interactive-session');
        if (!session) return undefined;
        const responses = Array.from(session.querySelectorAll('.interactive-response'));
        return {
          text: responses.map((r) => r.textContent ?? '').join('\n'),
          images: Array.from(session.querySelectorAll('img')).map((i) => i.getAttribute('src') ?? ''),
          links: Array.from(session.querySelectorAll('.interactive-response a')).map((a) => ({
            text: a.textContent ?? '',
            href: a.getAttribute('data-href') || a.getAttribute('href') || '',
          })),
          input: session.querySelector('.interactive-input-part .view-lines')?.textContent ?? '',
          model: session.querySelector('.model-picker-item')?.textContent ?? '',
          mode: session.querySelector('.chat-mode-picker-item')?.textContent ?? '',
        };
      })
      .catch(() => undefined); // a page that went away meanwhile
    if (chat) return { ok: true, chat };
  }
  return { ok: false, error: 'no page shows a Chat view' };
}

async function act(browser: BrowserContext, request: PageRequest | ChatViewRequest): Promise<PageAnswer> {
  if ('chatView' in request) return readChat(browser);
  const frames = await framesWith(browser, request.pageWith);
  if (frames.length !== 1) return { ok: false, error: `${frames.length} webview frames hold [data-testid="${request.pageWith}"], not one` };
  const frame = frames[0]!;
  const action = request.action;
  if (action.op === 'read') return { ok: true, view: await readView(frame) };
  if (action.op === 'paint') return { ok: true, paint: await readPaint(frame, action.testId) };
  if (action.op === 'axe') return { ok: true, axe: await runAxe(frame) };
  if (action.op === 'hasFocus') return { ok: true, hasFocus: await frame.evaluate(() => document.hasFocus()) };
  const target = frame.locator(`[data-testid="${action.testId}"]`);
  const options = { timeout: ACTION_TIMEOUT_MS };
  switch (action.op) {
    case 'click':
      await target.nth(action.nth ?? 0).click(options);
      break;
    case 'fill':
      await target.first().fill(action.value, options);
      break;
    case 'select':
      await target.first().selectOption(action.value, options);
      break;
    case 'check':
      await target.first().setChecked(action.checked, options);
      break;
    case 'press':
      await target.first().press(action.key, options);
      break;
  }
  return { ok: true };
}

/** Starts the endpoint; `browser` resolves once the runner's browser is up (requests wait for it). */
export async function startPageBridge(browser: () => Promise<BrowserContext> | undefined): Promise<PageBridge> {
  const secret = randomBytes(16).toString('hex');
  const server = http.createServer((req, res) => {
    const reply = (status: number, answer: PageAnswer) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(answer));
    };
    if (req.method !== 'POST' || req.url !== `/${secret}`) return reply(404, { ok: false, error: 'not here' });
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) parts.push(c);
    });
    req.on('end', () => {
      void (async () => {
        try {
          if (size > MAX_BODY_BYTES) throw new Error('request too large');
          const request = JSON.parse(Buffer.concat(parts).toString('utf8')) as PageRequest | ChatViewRequest;
          const context = await browser();
          if (!context) throw new Error('the browser is not open');
          reply(200, await act(context, request));
        } catch (error) {
          reply(200, { ok: false, error: error instanceof Error ? error.message : String(error) });
        }
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/${secret}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
