// The shell of a webview page (the playground, the evaluation report): its bundle fills it in. The policy allows
// nothing by default; the one script runs by nonce, styles, fonts and images only from the extension's own files
// (webview.cspSource), no inline style, no network, no frames. No `vscode` import: checked under plain mocha.

export interface WebviewHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  /** Fresh per page, from crypto. */
  nonce: string;
  scriptUri: string;
  /** Stylesheets, in order. */
  styleUris: readonly string[];
  title: string;
  /** The element the bundle renders into: `<tag id="app" data-testid="…">`. */
  root: { tag: 'div' | 'main'; testId: string };
  /** vscode.env.language, as `<html lang>`; English when not given. */
  lang?: string;
  /**
   * vscode.l10n.bundle (undefined in English): the page's translations, as JSON in the root's `data-l10n` attribute
   * (the policy allows no inline script). The page reads it before it builds anything.
   */
  l10nBundle?: Record<string, string>;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
  ].join('; ');
}

export function webviewHtml(input: WebviewHtmlInput): string {
  const attr = escapeAttribute;
  const styles = input.styleUris.map((uri) => `<link rel="stylesheet" href="${attr(uri)}">\n`).join('');
  const { tag, testId } = input.root;
  const l10n = input.l10nBundle ? ` data-l10n="${attr(JSON.stringify(input.l10nBundle))}"` : '';
  return `<!DOCTYPE html>
<html lang="${attr(input.lang || 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(input.cspSource, input.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${styles}<title>${attr(input.title)}</title>
</head>
<body>
<${tag} id="app" data-testid="${attr(testId)}"${l10n}></${tag}>
<script nonce="${attr(input.nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
