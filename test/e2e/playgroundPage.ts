// The playground as Playwright sees it: a webview is two nested iframes (the workbench's host frame `iframe.webview`,
// and inside it `iframe#active-frame` holding our page), and the page's elements carry `data-testid` attributes.
import type { Frame, FrameLocator, Locator, Page, Request } from 'playwright-core';

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
   * moved into the frame (the first words went missing).
   */
  async ask(text: string): Promise<void> {
    await this.prompt.press('Control+A');
    await this.prompt.pressSequentially(text);
    const typed = await this.prompt.inputValue();
    if (typed !== text) throw new Error(`the prompt reads ${JSON.stringify(typed)} instead of ${JSON.stringify(text)}`);
    await this.run.click();
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
