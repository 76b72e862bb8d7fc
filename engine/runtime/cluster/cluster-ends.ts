/**
 * The quantum ends the cluster backend hands the executor: one a node measured (its clock is the
 * coordinator's: the end is when the report arrived, the start that minus the time the node
 * measured, never before the dispatch was sent), and those it reports when no node did.
 */
import type { Dispatch, ErrorCause, QuantumEnd } from '../backend.ts';
import type { QuantumResult } from './protocol.ts';

export function measuredEnd(
  dispatch: Dispatch,
  sentAt: number,
  now: number,
  result: QuantumResult,
): QuantumEnd {
  return {
    splitId: dispatch.splitId,
    workerId: dispatch.workerId,
    startNanos: Math.max(sentAt, now - result.ranNanos),
    endNanos: now,
    ranNanos: result.ranNanos,
    workNanos: result.workNanos,
    outcome: result.outcome,
    ...(result.blockedNanos === undefined ? {} : { blockedNanos: result.blockedNanos }),
    ...(result.error === undefined ? {} : { error: result.error }),
    ...(result.errorCode === undefined ? {} : { errorCode: result.errorCode }),
    ...causeOf(result.cause),
    ...(result.result === undefined ? {} : { result: result.result }),
  };
}

/**
 * A thrown error's cause as a node sent it, if it reads as one (it came through Redis, so it is
 * not trusted): the job's `cause` and its row's `causeCode`, as on threads.
 */
function causeOf(cause: unknown): { cause?: ErrorCause } {
  if (typeof cause !== 'object' || cause === null) return {};
  const { name, message, stack, code } = cause as Record<string, unknown>;
  if (typeof name !== 'string' || typeof message !== 'string') return {};
  return {
    cause: {
      name,
      message,
      ...(typeof stack === 'string' ? { stack } : {}),
      ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    },
  };
}

/**
 * A quantum lost with its node (or failed by BullMQ): `WORKER_LOST`, its work lost. No node
 * measured it, so it is charged by rule (README, "Running on several machines"): the wall
 * time from when it started to run as far as the coordinator knows (`startAt`: its dispatch, or
 * the end of the quantum queued before it on the same worker) until the loss was detected (`at`),
 * at most the quantum it was granted — it would have yielded there, and the rest of the detection
 * delay is the fleet's, not the tenant's. The span covers `startAt`..`at`, the time the worker was
 * held.
 */
export function lostEnd(
  dispatch: Dispatch,
  startAt: number,
  at: number,
  error: string,
): QuantumEnd {
  const ran = Math.max(0, Math.min(at - startAt, grantedNanos(dispatch)));
  // Its span (the Gantt, the trace, a report's `scheduled`, all sums of spans) is what it is
  // charged: drawn until the loss was noticed, a 50 ms call read 2.8 s there beside a busy time
  // of 50 ms.
  return {
    splitId: dispatch.splitId,
    workerId: dispatch.workerId,
    startNanos: startAt,
    endNanos: startAt + ran,
    ranNanos: ran,
    workNanos: 0,
    outcome: 'failed',
    error,
    errorCode: 'WORKER_LOST',
  };
}

/**
 * The longest a dispatch runs if nothing stops it: its one atomic call, or its quantum — no more
 * than a built-in kernel's work left (a 100 ms split lost in a 1 s quantum was charged 1 s). A
 * module's `totalNanos` is 0: it decides its own end, so its quantum is the bound.
 */
export function grantedNanos(dispatch: Dispatch): number {
  const { perCallNanos, totalNanos, kernel } = dispatch.work;
  const left = totalNanos - dispatch.doneNanos;
  if (perCallNanos !== undefined) return Math.max(0, Math.min(perCallNanos, left));
  return typeof kernel === 'string'
    ? Math.max(0, Math.min(dispatch.quantumNanos, left))
    : dispatch.quantumNanos;
}
