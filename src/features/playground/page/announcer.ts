// A polite live region of the page's own, outside what the page re-renders (a live region replaced with the rest is
// not read out), for the few moments a screen reader user should hear without looking: a run's answer arrived, a
// verdict came. Visually hidden: the page shows the same facts where they belong.
import { h } from './dom';

export function announcer(testId: string): (text: string) => void {
  const region = h('div', { role: 'status', 'aria-live': 'polite', class: 'visually-hidden', 'data-testid': testId });
  document.body.append(region);
  return (text) => {
    region.textContent = text;
  };
}
