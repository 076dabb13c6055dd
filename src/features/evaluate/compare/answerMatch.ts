// Whether a model's answer is the one expected, without a judge. `exact` compares the texts trimmed; `normalized`
// compares what a reader would call the same answer: case, spacing and punctuation ignored, numbers by their value
// ("1,000" = "1000", "3.50" = "3.5", "7.0" = "7"). Both compare the whole answer, never "contains": a model that lists
// every option would otherwise be right on every question. No vscode: plain mocha.

export type MatchScoring = 'exact' | 'normalized';

/** A number as written (thousands commas allowed), or a run of letters and digits: everything else is spacing. */
const TOKEN = /[-+]?\d+(?:,\d{3})*(?:\.\d+)?(?![\p{L}\p{N}])|[\p{L}\p{N}\p{M}]+/gu;

export function normalizeAnswer(text: string): string {
  const out: string[] = [];
  for (const [token] of text.normalize('NFKC').matchAll(TOKEN)) {
    if (/^[-+]?\d/.test(token)) {
      const value = Number(token.replace(/,/g, ''));
      out.push(Number.isFinite(value) ? String(value) : token);
    } else {
      out.push(token.toLowerCase());
    }
  }
  return out.join(' ');
}

export function answerMatches(answer: string, expected: string, scoring: MatchScoring): boolean {
  if (scoring === 'exact') return answer.trim() === expected.trim();
  return normalizeAnswer(answer) === normalizeAnswer(expected);
}
