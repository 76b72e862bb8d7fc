/**
 * How the sim tells the executor a quantum ended. A listener that keeps nothing of the end
 * (`transientEnd`) gets the same object each time, refilled: no garbage per quantum. Any other
 * gets a fresh one, of one shape for every outcome (no conditional spreads), so the path stays
 * monomorphic.
 */
import {
  INJECTED_FAILURE,
  type BackendEvents,
  type QuantumEnd,
  type QuantumOutcome,
} from '../backend.ts';
import type { SimWorkers } from './sim-workers.ts';

/** The `QuantumEnd` the sim refills for transient listeners; `error` undefined unless failed. */
export interface MutableEnd {
  splitId: number;
  workerId: number;
  startNanos: number;
  endNanos: number;
  ranNanos: number;
  workNanos: number;
  outcome: QuantumOutcome;
  blockedNanos: number;
  error: string | undefined;
  /** The sim runs no user code: never a result (declared so every end has one shape). */
  readonly result: undefined;
}

export function newEnd(): MutableEnd {
  return {
    splitId: 0,
    workerId: 0,
    startNanos: 0,
    endNanos: 0,
    ranNanos: 0,
    workNanos: 0,
    outcome: 'yielded',
    blockedNanos: 0,
    error: undefined,
    result: undefined,
  };
}

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
