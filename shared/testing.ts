/** Test helpers over the contract: imported by tests only, never by product code. */
import { SchedLabError } from './errors.ts';

/** The coded error `fn` throws; fails the test if it returns or throws anything else. */
export function schedLabErrorOf(fn: () => unknown): SchedLabError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SchedLabError) return e;
    throw e;
  }
  throw new Error('expected a SchedLabError');
}
