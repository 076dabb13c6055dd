// The playground as Playwright sees it: a webview is two nested iframes (the workbench's host frame `iframe.webview`,
// and inside it `iframe#active-frame` holding our page), and the page's elements carry `data-testid` attributes.
import type { Frame, FrameLocator, Locator, Page, Request } from 'playwright-core';
import { actUntil } from './workbench';

export class PlaygroundPage {
  constructor(private readonly page: Page) {}

  /** The shown webview's host frame (hidden webviews of other editors keep their iframes): where the page is seen. */
  get host(): Locator {
    return this.page.locator('iframe.webview').filter({ visible: true });
  }

  /** Our page, inside the host frame. */
  get content(): FrameLocator {
    return this.host.contentFrame().locator('iframe#active-frame').contentFrame();
  }

  byTestId(id: string): Locator {
    return this.content.locator(`[data-testid="${id}"]`);
  }

  get prompt(): Locator {
    return this.byTestId('prompt');
  }
  get run(): Locator {
    return this.byTestId('run');
  }
  get stop(): Locator {
    return this.byTestId('stop');
  }
  get output(): Locator {
    return this.byTestId('output');
  }
  get status(): Locator {
    return this.byTestId('status');
  }
  get ttft(): Locator {
    return this.byTestId('ttft');
  }
  get modelSelect(): Locator {
    return this.byTestId('model-select');
  }

  /**
   * Replaces the prompt with `text`, typed key by key, and presses Run. The keys go to the prompt itself: keys sent
   * to "the focused element" right after a click into the webview were seen to land in the workbench while focus
   * moved into the frame (the first words went missing). The prompt is typed again until it reads `text`. A run costs
   * a request, so Run is pressed again only while no run has started: Run is disabled until the form is valid, and a
   * click then does nothing. A run started is seen by its effect inside the page, a status that moved away from what it
   * read before the click, even for a moment: a fast answer on a panel that ran before is back at "Done." by the next
   * look, and a look at the status alone took it for a lost click and sent the prompt again (three times in one run).
   */
  async ask(text: string): Promise<void> {
    let typed = '';
    await actUntil(
      () => `the prompt to read ${JSON.stringify(text)} (it reads ${JSON.stringify(typed)})`,
      async () => {
        await this.prompt.press('Control+A');
        await this.prompt.pressSequentially(text);
      },
      async () => (typed = await this.prompt.inputValue()) === text,
    );
    const before = await this.status.innerText();
    const { content } = await this.frames();
    // Set in the page before the first click: every change of the status from then on is seen, however short.
    const moved = await content.evaluateHandle((was) => {
      const seen = { moved: false };
      const status = (): string | undefined => document.querySelector<HTMLElement>('[data-testid="status"]')?.innerText;
      const observer = new MutationObserver(() => {
        if (status() === was) return;
        seen.moved = true;
        observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
      return seen;
    }, before);
    try {
      await actUntil(
        `the run to start (the status to move from "${before}")`,
        () => this.run.click({ timeout: 5_000 }),
        () => moved.evaluate((seen) => seen.moved),
        { retryAfterMs: 10_000 },
      );
    } finally {
      await moved.dispose();
    }
  }

  /**
   * Resolves once the page has drawn two more frames: the page paints its status at once and the answer's text on the
   * next animation frame, so text read right after a status is seen may be a frame behind.
   */
  async rendered(): Promise<void> {
    const { content } = await this.frames();
    const drawn = await content.evaluate(
      () =>
        new Promise<boolean>((resolve) => {
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
          setTimeout(() => resolve(false), 10_000);
        }),
    );
    if (!drawn) throw new Error('the playground drew no frame within 10 s');
  }

  /**
   * What the page shows for each `data-testid`, read in one go inside the page: its text, whether it is seen, and
   * whether the `<details>` around it is open. States that change together (the status, the clock, the reasoning, the
   * answer) are judged together: read one by one, a streaming page moves on between the reads.
   */
  async shown<Id extends string>(ids: readonly Id[]): Promise<Record<Id, ShownElement>> {
    const { content } = await this.frames();
    return content.evaluate(
      (wanted) =>
        Object.fromEntries(
          wanted.map((id) => {
            const element = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
            return [
              id,
              {
                text: element?.innerText ?? '',
                visible: element?.checkVisibility() ?? false,
                open: element?.closest('details')?.open ?? false,
              },
            ];
          }),
        ) as Record<Id, ShownElement>,
      ids,
    );
  }

  /** The host frame and our page's frame, for evaluating inside them. */
  async frames(): Promise<{ host: Frame; content: Frame }> {
    const host = await (await this.host.elementHandle())?.contentFrame();
    if (!host) throw new Error('the webview host frame is not there');
    const content = await (await host.locator('iframe#active-frame').elementHandle())?.contentFrame();
    if (!content) throw new Error("the webview's content frame is not there");
    return { host, content };
  }
}

/** One element of the page as `PlaygroundPage.shown` reads it. */
export interface ShownElement {
  readonly text: string;
  readonly visible: boolean;
  /** Whether the `<details>` holding it (the Thinking section) is open; false outside one. */
  readonly open: boolean;
}

/** True when a request comes from a webview's frames (the host page or our page inside it). */
export function fromWebview(request: Request): boolean {
  try {
    return request.frame().url().includes('/contrib/webview/browser/pre/');
  } catch {
    // A service worker's own request has no frame; the webview's service worker only serves vscode-resource files,
    // which the request from the page already shows.
    return false;
  }
}
