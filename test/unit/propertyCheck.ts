// The property tests' one way to run a property (fast-check): seeded, so that a failure names the seed and path that
// replay it (`HR_PROPERTY_SEED=<seed> npm run test:unit`), and the generator helpers they share.
import fc from 'fast-check';

/** The seed of a run: the one given in HR_PROPERTY_SEED, else the file's own (each file has its own default). */
export function propertySeed(fallback: number): number {
  return Number(process.env.HR_PROPERTY_SEED ?? fallback);
}

/** An `it` that checks `predicate` on `runs` values of `arb` drawn from `seed`, and on failure says how to replay it. */
export function checkProperty<T>(name: string, arb: fc.Arbitrary<T>, predicate: (value: T) => void, seed: number, runs: number): void {
  it(name, () => {
    const details = fc.check(fc.property(arb, predicate), { seed, numRuns: runs });
    if (details.failed) {
      throw new Error(
        `${name}: failed with seed ${seed} (replay: HR_PROPERTY_SEED=${seed}, path ${details.counterexamplePath})\n` +
          `counterexample: ${JSON.stringify(details.counterexample, null, 1)}\n${String(details.errorInstance)}`,
      );
    }
  });
}

export type G = fc.GeneratorValue;
export const pick = <T>(g: G, xs: readonly T[]): T => g(fc.constantFrom<T[]>, ...xs);
export const int = (g: G, min: number, max: number): number => g(fc.integer, { min, max });
export const bool = (g: G): boolean => g(fc.boolean);
