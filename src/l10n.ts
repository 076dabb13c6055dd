// vscode.l10n.t for the modules that run without VS Code (they are tested under plain mocha, so they cannot import
// it): they write `l10n.t('Downloaded {0}', name)` as the others write `vscode.l10n.t(…)`, and main.ts hands this the
// real one at start. Until then, and under mocha, the English text is formatted as vscode.l10n.t would. The playground
// page (browser code) uses it too, with a translator over the bundle its host passes in (page/pageL10n.ts). No Node,
// no vscode, no DOM: it runs on both sides.
type Arg = string | number | boolean;
export type Translate = (message: string, ...args: Arg[]) => string;

/** Puts the arguments into `{0}`, `{1}`, … of a message (English, or its translation); an index without one stays. */
export function formatMessage(message: string, ...args: Arg[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? whole : String(arg);
  });
}

let translate: Translate = formatMessage;

export const l10n = {
  t: (message: string, ...args: Arg[]): string => translate(message, ...args),
};

/** Called once by the composition root with vscode.l10n.t. */
export function useTranslations(t: Translate): void {
  translate = t;
}
