/**
 * Arrival processes of a job class (once, periodic, Poisson) as a lazy sequence of times, so an
 * open-ended class costs O(1) memory: the driver asks for the next arrival when the previous one
 * has happened.
 */
import type { Arrival } from '../../../shared/workload.ts';
import type { Rng } from '../../../shared/lib/rng.ts';

const MS = 1_000_000;

export interface ArrivalCursor {
  /** Time (ns) of the next arrival, or null when the class has no more jobs. */
  next(): number | null;
}

/**
 * Arrivals in ns, each scaled by `scale` (threads `timeScale`), stopping at `untilNanos`
 * (exclusive) when given.
 */
export function arrivals(rng: Rng, a: Arrival, scale = 1, untilNanos = Infinity): ArrivalCursor {
  const limit = a.kind === 'once' ? a.count : (a.count ?? Infinity);
  const start = (a.kind === 'once' ? a.atMs : a.startMs) * MS * scale;
  let emitted = 0;
  let t = start;
  return {
    next(): number | null {
      if (emitted >= limit) return null;
      if (a.kind === 'periodic') t = start + emitted * a.everyMs * MS * scale;
      // Poisson: exponential gaps with mean 1/rate seconds, the first one too — a process started
      // at `startMs` has no arrival there (every class fired a job at its start, on every seed,
      // and a window of D held rate × D + 1 jobs on average). Once: every job at the same time.
      else if (a.kind === 'poisson') t += (-Math.log(1 - rng.next()) / a.rate) * 1e9 * scale;
      const at = Math.round(t);
      if (at >= untilNanos) {
        emitted = limit;
        return null;
      }
      emitted++;
      return at;
    },
  };
}
