// Focus that comes back to a page after a VS Code dialog (a quick pick, a save dialog) was cancelled lands on the
// page's body: the webview's frame is focused, not the control that opened the dialog. Keyboard and screen reader
// users would then start again from the top. This puts it back on the last control that had it, if it is still there,
// or on the one a render put in its place while the dialog was open (returnTo).

export interface FocusReturn {
  /** The control the focus returns to, while it is in the page. */
  last(): HTMLElement | undefined;
  /**
   * A render replaced that control with `control` while the page did not have the focus: the focus returns there. (A
   * render cannot focus it then; the control it had is gone from the page, and the focus would come back to nothing.)
   */
  returnTo(control: HTMLElement): void;
}

export function returnFocusAfterDialogs(): FocusReturn {
  let last: HTMLElement | undefined;
  document.addEventListener('focusin', (event) => {
    if (event.target instanceof HTMLElement && event.target !== document.body) last = event.target;
  });
  window.addEventListener('focus', () => {
    // After the browser has placed the focus: a control the page or the person focused meanwhile is left alone.
    setTimeout(() => {
      const active = document.activeElement;
      if ((active === null || active === document.body) && last?.isConnected && !(last as HTMLButtonElement).disabled) last.focus();
    });
  });
  return {
    last: () => (last?.isConnected ? last : undefined),
    returnTo: (control) => {
      last = control;
    },
  };
}
