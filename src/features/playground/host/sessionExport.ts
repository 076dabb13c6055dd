// A playground session as a markdown document: each run's settings, timing, prompt, reasoning and answer. Prompts and
// reasoning are fenced (shown as written, and kept apart from the answer); answers stay markdown, as the model wrote
// them. No `vscode` import.
import type { ExportedRun } from '../protocol';

export function sessionMarkdown(runs: readonly ExportedRun[], exportedAt = new Date()): string {
  const out: string[] = [
    '# Playground session',
    '',
    `Exported ${exportedAt.toISOString()}, ${runs.length} run${runs.length === 1 ? '' : 's'}.`,
  ];
  runs.forEach((run, i) => {
    const s = run.settings;
    out.push('', `## ${i + 1}. ${oneLine(s.modelName)} — ${new Date(run.startedAt).toISOString()}`, '');
    out.push(
      `- Settings: temperature ${s.temperature}, RAG ${s.useRag ? 'on' : 'off'}, budgets ${s.sequentialBudget} sequential × ${s.parallelBudget} parallel, ${s.stream ? 'streamed' : 'not streamed'}`,
    );
    if (run.timing) {
      const t = run.timing;
      const first = t.ttfbMs !== undefined ? `first text after ${ms(t.ttfbMs)}, ` : '';
      out.push(`- Timing: ${first}total ${ms(t.totalMs)}, ${t.chars} characters`);
      if (t.reasoningChars !== undefined) {
        out.push(`- Thinking: ${t.thinkingMs !== undefined ? `${ms(t.thinkingMs)}, ` : ''}${t.reasoningChars} characters`);
      }
    }
    out.push(`- Outcome: ${run.outcome === 'error' ? `error — ${oneLine(run.error ?? 'unknown')}` : run.outcome}`);
    out.push('', '### Prompt', '', fenced(run.settings.prompt));
    if (s.queryOnly !== undefined && s.queryOnly !== s.prompt) out.push('', '### Query part', '', fenced(s.queryOnly));
    if (run.reasoning) out.push('', '### Thinking', '', fenced(run.reasoning));
    out.push('', '### Answer', '', run.output || '_(no output)_');
  });
  return `${out.join('\n')}\n`;
}

/** A fence longer than any backtick run inside, so the text cannot close it early. */
export function fenced(text: string, info = 'text'): string {
  // A loop, not a spread into Math.max: a prompt may hold more backtick runs than a call takes arguments.
  let longest = 0;
  for (const m of text.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function ms(value: number): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
}

/** `playground-2024-05-01-1412.md` */
export function exportFileName(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `playground-${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}.md`;
}
