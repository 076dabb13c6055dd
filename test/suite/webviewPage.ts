// The in-editor suite's view into a webview page. The extension host cannot see inside a webview (it only posts
// messages to it); the runner's browser can. The server runner (test/runners/pageBridge.ts) serves a few actions on a
// loopback address it names in HR_PAGE_BRIDGE: read every `data-testid` element of the page, and click, fill, select
// or check one, the way a person would (Playwright, with its waits for the element to be ready), press a key on one,
// read the colours an element is painted in, and run axe-core's accessibility checks on the page. Under a runner
// without a browser of its own (test:electron) the variable is unset and `webviewPage()` is undefined.

export const PAGE_BRIDGE_ENV = 'HR_PAGE_BRIDGE';

/** One element with a `data-testid`, as the page shows it. */
export interface ElementView {
  /** Its text (textContent: what is in the DOM, shown or not). */
  text: string;
  /** Laid out and not hidden (checkVisibility: a closed `<details>` hides its content). */
  visible: boolean;
  /** The nearest `<details>` around or at it: open or not. */
  open?: boolean;
  /** Inputs and selects: their value; checkboxes: "on"/"off". */
  value?: string;
  disabled?: boolean;
  /** Present (true) on the element that has the keyboard focus. */
  focused?: true;
}

/** Every `data-testid` of the page, each with its elements in document order. */
export type PageView = Record<string, ElementView[]>;

export type PageAction =
  | { op: 'read' }
  | { op: 'click'; testId: string; nth?: number }
  | { op: 'fill'; testId: string; value: string }
  | { op: 'select'; testId: string; value: string }
  | { op: 'check'; testId: string; checked: boolean }
  | { op: 'press'; testId: string; key: string }
  | { op: 'paint'; testId: string }
  | { op: 'axe' }
  | { op: 'hasFocus' };

/** The colours one element is painted in (computed styles, as `rgb(…)`/`rgba(…)` strings). */
export interface Paint {
  fill: string;
  stroke: string;
  color: string;
  background: string;
  borderColor: string;
}

/** The theme the page is in (the body's classes, `vscode-high-contrast` …), its background, and each element's paint. */
export interface PagePaint {
  bodyClass: string;
  pageBackground: string;
  elements: Paint[];
}

/** One rule axe-core found broken, with the elements that break it. */
export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string; summary: string }[];
}

export interface PageRequest {
  /** The page is the one webview frame holding an element with this test id (e.g. the playground's `prompt`). */
  pageWith: string;
  action: PageAction;
}

/** What the workbench's Chat view shows (not a webview: the workbench page itself), read only. */
export interface ChatView {
  /** The text of its responses, in order. */
  text: string;
  /** The `src` of every image element in it. */
  images: string[];
  /** Every link in it: its text, and where it goes (VS Code keeps the target in `data-href` and clears `href`). */
  links: { text: string; href: string }[];
  /** What its input holds (its editor's lines). */
  input: string;
  /** What its model picker shows. */
  model: string;
  /** What its mode picker shows (Ask, Agent). */
  mode: string;
}

/** Reads the Chat view of the workbench. */
export interface ChatViewRequest {
  chatView: true;
}

export type PageAnswer =
  | { ok: true; view?: PageView; chat?: ChatView; paint?: PagePaint; axe?: AxeViolation[]; hasFocus?: boolean }
  | { ok: false; error: string };

export class WebviewPage {
  constructor(
    private readonly url: string,
    private readonly pageWith: string,
  ) {}

  async read(): Promise<PageView> {
    const view = await this.ask({ op: 'read' });
    if (!view) throw new Error('the page bridge sent no view');
    return view;
  }

  /** The first (or `nth`) element with this test id; throws when there is none. */
  async element(testId: string, nth = 0): Promise<ElementView> {
    const found = (await this.read())[testId]?.[nth];
    if (!found) throw new Error(`no element [data-testid="${testId}"] #${nth} in the page`);
    return found;
  }

  async click(testId: string, nth = 0): Promise<void> {
    await this.ask({ op: 'click', testId, nth });
  }

  async fill(testId: string, value: string): Promise<void> {
    await this.ask({ op: 'fill', testId, value });
  }

  async select(testId: string, value: string): Promise<void> {
    await this.ask({ op: 'select', testId, value });
  }

  async check(testId: string, checked: boolean): Promise<void> {
    await this.ask({ op: 'check', testId, checked });
  }

  /** Focuses the element and presses a key on it (Playwright's key names: `Space`, `Enter`, `Escape`). */
  async press(testId: string, key: string): Promise<void> {
    await this.ask({ op: 'press', testId, key });
  }

  /** The colours of every element with this test id, and the page's theme and background. */
  async paint(testId: string): Promise<PagePaint> {
    const answer = await this.answer({ op: 'paint', testId });
    if (!answer.paint) throw new Error('the page bridge sent no paint');
    return answer.paint;
  }

  /** axe-core's violations on the page as it is now (every rule axe runs by default). */
  async axe(): Promise<AxeViolation[]> {
    const answer = await this.answer({ op: 'axe' });
    if (!answer.axe) throw new Error('the page bridge sent no axe result');
    return answer.axe;
  }

  /** The page's frame has the keyboard focus (`document.hasFocus()`), whichever of its elements holds it. */
  async hasFocus(): Promise<boolean> {
    const answer = await this.answer({ op: 'hasFocus' });
    if (answer.hasFocus === undefined) throw new Error('the page bridge sent no focus state');
    return answer.hasFocus;
  }

  private async ask(action: PageAction): Promise<PageView | undefined> {
    return (await this.answer(action)).view;
  }

  private async answer(action: PageAction): Promise<Extract<PageAnswer, { ok: true }>> {
    const body: PageRequest = { pageWith: this.pageWith, action };
    const res = await fetch(this.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await res.json()) as PageAnswer;
    if (!answer.ok) throw new Error(`page bridge, ${action.op}: ${answer.error}`);
    return answer;
  }
}

/** What the workbench's Chat view shows, or undefined when the runner offers no bridge. */
export async function readChatView(): Promise<ChatView | undefined> {
  const url = process.env[PAGE_BRIDGE_ENV];
  if (!url) return undefined;
  const body: ChatViewRequest = { chatView: true };
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const answer = (await res.json()) as PageAnswer;
  if (!answer.ok) throw new Error(`page bridge, chat view: ${answer.error}`);
  if (!answer.chat) throw new Error('the page bridge sent no chat view');
  return answer.chat;
}

/** The webview page holding an element with test id `pageWith`, or undefined when the runner offers no bridge. */
export function webviewPage(pageWith: string): WebviewPage | undefined {
  const url = process.env[PAGE_BRIDGE_ENV];
  return url ? new WebviewPage(url, pageWith) : undefined;
}
