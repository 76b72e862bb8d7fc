/**
 * Drives core `Steps` (engine/core/graph/steps.ts) off the frame path: one step per turn of the
 * event loop, so the session's frame timer and incoming commands run between steps while a large
 * graph is built (docs/limits.md).
 */
import type { Steps } from '../../core/graph/steps.ts';

/**
 * Runs `steps` to the end, one step per `setImmediate`. `check` runs before each step and throws
 * to abandon the work: the generator is then dropped, and with it everything it had built.
 */
export async function driveSteps<T>(steps: Steps<T>, check: () => void): Promise<T> {
  for (;;) {
    check();
    const r = steps.next();
    if (r.done === true) return r.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
