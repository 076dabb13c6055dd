// The report page: a shell its bundle fills in. The policy allows nothing by default; the one script runs by nonce,
// styles only from the extension's own files (webview.cspSource, no inline style: the chart's colours come from the
// stylesheet's classes), no network, no frames. No `vscode` import: tested under plain mocha.

export interface ReportHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  /** Fresh per page, from crypto. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  title: string;
}

export function reportContentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource}`,
  ].join('; ');
}

export function reportHtml(input: ReportHtmlInput): string {
  const attr = escapeHtml;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(reportContentSecurityPolicy(input.cspSource, input.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(input.styleUri)}">
<title>${attr(input.title)}</title>
</head>
<body>
<main id="app" data-testid="evaluation-report"></main>
<script nonce="${attr(input.nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>`;
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
