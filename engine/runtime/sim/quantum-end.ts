/**
 * How the sim tells the executor a quantum ended. A listener that keeps nothing of the end
 * (`transientEnd`) gets the same object each time, refilled: no garbage per quantum. Any other
 * gets a fresh one, of one shape for every outcome (no conditional spreads), so the path stays
 * monomorphic.
 */
import {
  INJECTED_FAILURE,
  type BackendEvents,
  type MutableEnd,
  type QuantumEnd,
} from '../backend.ts';
import type { SimWorkers } from './sim-workers.ts';

/** Tells `listener` that worker `w`'s quantum ended at `now` (`shared`: the refilled end). */
export function deliverEnd(
  listener: BackendEvents,
  slots: SimWorkers,
  w: number,
  now: number,
  shared: MutableEnd,
): void {
  const outcome = slots.outcome[w]!;
  if (listener.transientEnd !== true) {
    const end: { -readonly [K in keyof QuantumEnd]: QuantumEnd[K] } = {
      splitId: slots.splitId[w]!,
      workerId: w,
      startNanos: slots.startAt[w]!,
      endNanos: now,
      ranNanos: slots.ran[w]!,
      workNanos: slots.work[w]!,
      outcome,
      blockedNanos: slots.blocked[w]!,
    };
    if (outcome === 'failed') end.error = INJECTED_FAILURE;
    listener.quantumEnd(end);
    return;
  }
  shared.splitId = slots.splitId[w]!;
  shared.workerId = w;
  shared.startNanos = slots.startAt[w]!;
  shared.endNanos = now;
  shared.ranNanos = slots.ran[w]!;
  shared.workNanos = slots.work[w]!;
  shared.outcome = outcome;
  shared.blockedNanos = slots.blocked[w]!;
  shared.error = outcome === 'failed' ? INJECTED_FAILURE : undefined;
  listener.quantumEnd(shared as QuantumEnd);
}
