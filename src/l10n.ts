// vscode.l10n.t for the modules that run without VS Code (they are tested under plain mocha, so they cannot import
// it): they write `l10n.t('Downloaded {0}', name)` as the others write `vscode.l10n.t(…)`, and main.ts hands this the
// real one at start. Until then, and under mocha, the English text is formatted as vscode.l10n.t would.
type Arg = string | number | boolean;
type Translate = (message: string, ...args: Arg[]) => string;

function english(message: string, ...args: Arg[]): string {
  return message.replace(/\{(\d+)\}/g, (whole, index: string) => {
    const arg = args[Number(index)];
    return arg === undefined ? whole : String(arg);
  });
}

let translate: Translate = english;

export const l10n = {
  t: (message: string, ...args: Arg[]): string => translate(message, ...args),
};

/** Called once by the composition root with vscode.l10n.t. */
export function useTranslations(t: Translate): void {
  translate = t;
}
