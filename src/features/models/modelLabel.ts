// What a Models view row shows of a model with several identifiers (issue 36): the shortest readable one that no
// other listed model shares. A resource name (`tunedModels/x`) offers its id too; an opaque id (`m-3f9a1c2e`, a UUID)
// is not readable, and an ARN or a resource name is readable but long. With no other identifier this is the row as it
// was: the name's id when no other model's is the same, else the whole name. The tooltip says them all.
import { identifiersOf } from '../../api/modelIdentifiers';
import type { ModelInfo } from '../../api/types';
import { lastSegment } from '../../jobs/jobFormat';

/** The name each row shows, in the order of `models`. */
export function shownNames(models: readonly Pick<ModelInfo, 'name' | 'otherNames'>[]): string[] {
  const candidates = models.map((m) => [...new Set(identifiersOf(m).flatMap((n) => [n, lastSegment(n)]))]);
  const owners = new Map<string, number>();
  for (const names of candidates) for (const n of names) owners.set(n, (owners.get(n) ?? 0) + 1);
  return models.map((m, i) => {
    let best: string | undefined;
    for (const n of candidates[i]!) {
      if (owners.get(n) !== 1) continue;
      if (best === undefined || better(n, best)) best = n;
    }
    return best ?? m.name;
  });
}

/** A readable name over an opaque one, then the shorter (the first on a tie: the list's own order). */
function better(a: string, b: string): boolean {
  const ra = readable(a);
  const rb = readable(b);
  return ra !== rb ? ra : a.length < b.length;
}

/** Not an opaque id: a hash or a UUID, after a short prefix (`m-3f9a1c2e`, `ft_0a1b2c3d4e`). */
function readable(name: string): boolean {
  return !/^(?:[a-z]{1,3}[-_])?(?=[\da-f-]*\d)[\da-f]{6,}(?:-[\da-f]+)*$/i.test(name);
}
