/**
 * The one fast-check configuration every property and fuzz test uses, so that each failure can
 * be reproduced.
 *
 * Every property runs twice: with {@link FIXED_SEED}, so CI always covers the same cases, and
 * with a rotating seed, so that over many runs it covers new ones. The rotating seed comes from
 * the `FC_SEED` environment variable when set, and is random otherwise; it is printed once per
 * test file. A failure names the seed that found it and the command line that replays it; it is
 * reported, never retried.
 *
 * @example
 * ```ts
 * import { assertProperty } from '../../../../tests/support/fastCheck.js';
 * it('round-trips', () => assertProperty(fc.property(fc.string(), (s) => decode(encode(s)) === s)));
 * // replay a failure: FC_SEED=123456 npx vitest run path/to/file.test.ts
 * ```
 */
import fc from 'fast-check';

/** The seed every run uses first. Changing it changes what CI always checks. */
export const FIXED_SEED = 20_261_125;

function readRotatingSeed(): number {
  const fromEnv = process.env.FC_SEED;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const seed = Number(fromEnv);
    if (!Number.isSafeInteger(seed))
      throw new Error(`FC_SEED must be an integer, got ${JSON.stringify(fromEnv)}`);
    return seed | 0;
  }
  return (Math.random() * 0x1_0000_0000) | 0;
}

/** This run's rotating seed: `FC_SEED`, or random. */
export const ROTATING_SEED = readRotatingSeed();

let announced = false;
function announce(): void {
  if (announced) return;
  announced = true;
  console.info(
    `[fast-check] seeds: fixed ${FIXED_SEED}, rotating ${ROTATING_SEED} (replay with FC_SEED=${ROTATING_SEED})`,
  );
}

/** The seeds a property runs with: the fixed one, then the rotating one (once if they are equal). */
export function propertySeeds(): { readonly label: 'fixed' | 'rotating'; readonly seed: number }[] {
  announce();
  const seeds: { label: 'fixed' | 'rotating'; seed: number }[] = [{ label: 'fixed', seed: FIXED_SEED }];
  if (ROTATING_SEED !== FIXED_SEED) seeds.push({ label: 'rotating', seed: ROTATING_SEED });
  return seeds;
}

function failure(label: string, seed: number, error: unknown): Error {
  const detail = error instanceof Error ? error.message : JSON.stringify(error);
  const replay = label === 'fixed' ? 'it fails on every run' : `replay with FC_SEED=${seed}`;
  return new Error(`Property failed with the ${label} seed ${seed} (${replay})\n${detail}`, { cause: error });
}

/**
 * `fc.assert` with the shared seeds: runs the property with the fixed seed, then the rotating
 * one. A failure's message starts with the seed that found it.
 */
export function assertProperty<T>(property: fc.IProperty<T>, params?: fc.Parameters<T>): void;
export function assertProperty<T>(property: fc.IAsyncProperty<T>, params?: fc.Parameters<T>): Promise<void>;
export function assertProperty<T>(
  property: fc.IProperty<T> | fc.IAsyncProperty<T>,
  params: fc.Parameters<T> = {},
): void | Promise<void> {
  const seeds = propertySeeds();
  if (property.isAsync()) {
    return (async () => {
      for (const { label, seed } of seeds) {
        try {
          await fc.assert(property as fc.IAsyncProperty<T>, { ...params, seed });
        } catch (error) {
          throw failure(label, seed, error);
        }
      }
    })();
  }
  for (const { label, seed } of seeds) {
    try {
      fc.assert(property as fc.IProperty<T>, { ...params, seed });
    } catch (error) {
      throw failure(label, seed, error);
    }
  }
}

/**
 * `fc.sample` for fuzzing with one seed: the same seed always gives the same values.
 */
export function sampleWithSeed<T>(arbitrary: fc.Arbitrary<T>, count: number, seed: number): T[] {
  return fc.sample(arbitrary, { numRuns: count, seed });
}
