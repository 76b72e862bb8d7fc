/**
 * The quantum ends the cluster backend hands the executor: one a node measured (its clock is the
 * coordinator's: the end is when the report arrived, the start that minus the time the node
 * measured, never before the dispatch was sent), and those it reports when no node did.
 */
import type { Dispatch, QuantumEnd } from '../backend.ts';
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
    ...(result.result === undefined ? {} : { result: result.result }),
  };
}

/** A quantum that never ran (or whose record Redis lost): no time, no work; offered again. */
export function unstartedEnd(dispatch: Dispatch, at: number): QuantumEnd {
  const { splitId, workerId } = dispatch;
  return {
    splitId,
    workerId,
    startNanos: at,
    endNanos: at,
    ranNanos: 0,
    workNanos: 0,
    outcome: 'yielded',
  };
}

/** A quantum lost with its node: `WORKER_LOST`, nothing charged (no node measured it). */
export function lostEnd(dispatch: Dispatch, sentAt: number, at: number, error: string): QuantumEnd {
  return {
    splitId: dispatch.splitId,
    workerId: dispatch.workerId,
    startNanos: sentAt,
    endNanos: at,
    ranNanos: 0,
    workNanos: 0,
    outcome: 'failed',
    error,
    errorCode: 'WORKER_LOST',
  };
}
