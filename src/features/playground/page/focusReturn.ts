// Focus that comes back to a page after a VS Code dialog (a quick pick, a save dialog) was cancelled lands on the
// page's body: the webview's frame is focused, not the control that opened the dialog. Keyboard and screen reader
// users would then start again from the top. This puts it back on the last control that had it, if it is still there.

export function returnFocusAfterDialogs(): void {
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
}
