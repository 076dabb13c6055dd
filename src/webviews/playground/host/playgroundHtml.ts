// The playground page: a shell the webview bundle fills in. The policy allows nothing by default; the one script
// runs by nonce, styles and fonts only from the extension's own files (webview.cspSource), no inline style, no
// network, no frames. No `vscode` import: the page is checked under plain mocha.

export interface PlaygroundHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  /** Fresh per page, from crypto. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconsUri: string;
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

export function playgroundHtml(input: PlaygroundHtmlInput): string {
  const attr = escapeAttribute;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(input.cspSource, input.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(input.codiconsUri)}">
<link rel="stylesheet" href="${attr(input.styleUri)}">
<title>Playground</title>
</head>
<body>
<div id="app" data-testid="playground"></div>
<script nonce="${attr(input.nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>`;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
