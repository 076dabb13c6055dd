// A small element builder: content always goes in as text (never parsed as HTML), so nothing here can inject markup.
// The one place that sets innerHTML is the output pane, with HTML from the markdown renderer.

type Attributes = Record<string, string | boolean | undefined>;
// A list of children is taken as a list, never spread into a call: a model list from the service may hold more items
// than a call takes arguments (about 125,000: RangeError).
type Child = Node | string | undefined | false | readonly Child[];

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  appendChildren(element, children);
  return element;
}

function appendChildren(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    if (Array.isArray(child)) appendChildren(parent, child as readonly Child[]);
    else parent.appendChild(typeof child === 'string' ? document.createTextNode(child) : (child as Node));
  }
}

/** Replaces `parent`'s children with `children` in one change (a loop into a fragment: no spread, see Child). */
export function setChildren(parent: Element, children: readonly Child[]): void {
  const fragment = document.createDocumentFragment();
  appendChildren(fragment, children);
  parent.replaceChildren(fragment);
}

/** A codicon, hidden from screen readers (the control around it carries the label). */
export function icon(name: string): HTMLSpanElement {
  return h('span', { class: `codicon codicon-${name}`, 'aria-hidden': 'true' });
}

/** Shows or hides an element with the `hidden` attribute (the policy forbids inline styles). */
export function show(element: HTMLElement, visible: boolean): void {
  element.hidden = !visible;
}

let counter = 0;
/** Ids for label/aria-describedby pairs; unique within the page. */
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: () => VsCodeApi;

/**
 * A page's only link to the extension: typed posting (its protocol's messages, nothing else) and the state VS Code
 * keeps for the page while it is hidden or the window reloads. Called once per page (acquireVsCodeApi allows no more).
 */
export function vscodeApi<Out, State>() {
  const api = acquireVsCodeApi();
  return {
    post: (message: Out): void => api.postMessage(message),
    loadState: (): unknown => api.getState(),
    saveState: (state: State): void => api.setState(state),
  };
}
