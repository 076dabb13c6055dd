// `profile`: how this service's answers are read (the service profile kept for its origin, or the one given with
// --profile <file>), one line per kind of answer; `--profile <file> --keep` keeps the file's profile as the origin's.
import { PART_WORDS } from '../../api/profileWords';
import type { CommandContext } from '../context';

export async function profileCommand(ctx: CommandContext, options: { keep: boolean; given: boolean }): Promise<number> {
  const book = ctx.connection.profiles;
  if (options.keep) {
    const given = Object.fromEntries(
      book
        .describe()
        .filter((p) => p.by === 'given')
        .map((p) => [p.part, book.profile(p.part)]),
    );
    await book.keepAll(given);
    ctx.out.note(`Kept the given profile for ${book.origin}.`);
  }
  const parts = book.describe();
  const lines = [
    `${book.origin}: ${parts.length === 0 ? 'nothing kept yet; each answer is read by inference until two agree.' : ''}`.trimEnd(),
  ];
  for (const p of parts) lines.push(`  ${PART_WORDS[p.part].name} (${p.by}): ${p.reading}`);
  ctx.out.result(lines.join('\n'), { origin: book.origin, parts });
  return 0;
}
