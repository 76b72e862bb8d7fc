/**
 * What a dispatch costs on the sim, in virtual time, from the split's work and nothing else:
 * - with `perCallNanos`, exactly one call of `min(remaining, perCallNanos)` (atomic: it may overrun
 *   the quantum, like Trino's leaf splits), otherwise `min(quantum, remaining)`;
 * - if work is left and `blockedNanosPerCall` is set, the quantum ends `blocked` for that long;
 * - kernel `sleep` does no CPU work: a dispatch blocks for one call, `min(remaining, perCallNanos)`
 *   (all that remains without `perCallNanos`), the worker free at once; the dispatch after the
 *   last call finishes (threads' quantum-runner.ts does the same);
 * - `failProbability` draws from the seeded RNG (the sim's only fault injection): the quantum
 *   runs its time and fails, its work lost.
 * Each function writes the worker's slot (sim-workers.ts); the backend schedules the end.
 */
import type { QuantumOutcome, SplitWork } from '../backend.ts';
import type { SimWorkers } from './sim-workers.ts';

/** Plans worker `w`'s quantum: how long it runs, how much work it does, how it ends. */
export function planQuantum(
  slots: SimWorkers,
  w: number,
  work: SplitWork,
  doneNanos: number,
  quantumNanos: number,
  overheadNanos: number,
  rng: () => number,
): void {
  const remaining = Math.max(0, work.totalNanos - doneNanos);
  // A call takes at least the clock's unit: one of 1e-300 ns left the clock where it was, and the
  // simulator ran empty quanta of that split for ever.
  const perCall = work.perCallNanos === undefined ? undefined : Math.max(1, work.perCallNanos);
  let ran: number;
  let done: number;
  let outcome: QuantumOutcome;
  let blocked = 0;
  if (work.kernel === 'sleep') {
    const call = perCall === undefined ? remaining : Math.min(remaining, perCall);
    ran = 0;
    done = call;
    outcome = remaining > 0 ? 'blocked' : 'finished';
    blocked = call;
  } else {
    ran = perCall !== undefined ? Math.min(remaining, perCall) : Math.min(remaining, quantumNanos);
    done = ran;
    if (work.failProbability !== undefined && rng() < work.failProbability) {
      outcome = 'failed';
      done = 0;
    } else if (done >= remaining) {
      outcome = 'finished';
    } else if (work.blockedNanosPerCall !== undefined && work.blockedNanosPerCall > 0) {
      outcome = 'blocked';
      blocked = work.blockedNanosPerCall;
    } else {
      outcome = 'yielded';
    }
  }
  slots.ran[w] = ran + overheadNanos;
  slots.work[w] = done;
  slots.outcome[w] = outcome;
  slots.blocked[w] = blocked;
}

/**
 * Moves worker `w`'s quantum end to `max(now, min(end, start + quantumNanos))`: the sim's units
 * are infinitely fine, so "the first unit boundary past" is that instant. The work done shrinks
 * with it; a quantum that would have finished its split now leaves work and yields (or blocks,
 * with `blockedNanosPerCall`). A failed quantum still fails, only sooner. Returns the new end, or
 * -1 when it stays (an idle worker, an atomic call, a cancel, an end already within the cut).
 */
export function shortenPlan(
  slots: SimWorkers,
  w: number,
  now: number,
  quantumNanos: number,
  overheadNanos: number,
): number {
  const work = slots.workOf[w];
  if (!slots.busy[w] || work === null || work === undefined) return -1;
  if (work.perCallNanos !== undefined || slots.outcome[w] === 'cancelled') return -1;
  const start = slots.startAt[w]!;
  const end = start + slots.ran[w]!;
  const newEnd = Math.max(now, Math.min(end, start + quantumNanos));
  if (newEnd >= end) return -1;
  const ran = newEnd - start;
  const done = Math.max(0, ran - overheadNanos);
  if (slots.outcome[w] !== 'failed' && done < slots.work[w]!) {
    slots.work[w] = done;
    const blocks = work.blockedNanosPerCall !== undefined && work.blockedNanosPerCall > 0;
    slots.outcome[w] = blocks ? 'blocked' : 'yielded';
    slots.blocked[w] = blocks ? work.blockedNanosPerCall! : 0;
  }
  slots.ran[w] = ran;
  return newEnd;
}

/** Stops worker `w`'s quantum "at the next unit": now, with the work done pro rata so far. */
export function cancelPlan(slots: SimWorkers, w: number, now: number): void {
  const elapsed = now - slots.startAt[w]!;
  const full = slots.ran[w]!;
  slots.work[w] = full > 0 ? Math.floor((slots.work[w]! * elapsed) / full) : 0;
  slots.ran[w] = elapsed;
  slots.outcome[w] = 'cancelled';
  slots.blocked[w] = 0;
}
