/**
 * The quantum ends the threads backend reports: one a worker measured, and those it reports on a
 * worker's behalf, when no worker measured them: a queued dispatch that never started, a split
 * whose worker was lost or whose input could not be sent.
 */
import type { MutableEnd, QuantumEnd } from '../backend.ts';
import type { QuantumReport } from './protocol.ts';

/** A worker's report of its quantum as the executor reads it (a module's yielded state stays). */
export function measuredEnd(report: QuantumReport, workerId: number): QuantumEnd {
  // Field by field, not a rest and a spread: this runs once a quantum on the main thread.
  const end: { -readonly [K in keyof QuantumEnd]: QuantumEnd[K] } = {
    splitId: report.splitId,
    workerId,
    startNanos: report.startNanos,
    endNanos: report.endNanos,
    ranNanos: Math.max(0, report.endNanos - report.startNanos),
    workNanos: report.workNanos,
    outcome: report.outcome,
  };
  if (report.cpuNanos !== undefined) end.cpuNanos = report.cpuNanos;
  if (report.blockedNanos !== undefined) end.blockedNanos = report.blockedNanos;
  if (report.error !== undefined) end.error = report.error;
  if (report.cause !== undefined) end.cause = report.cause;
  if ('result' in report) end.result = report.result;
  return end;
}

/** `measuredEnd`'s fields, written into the backend's refilled end (backend.ts `MutableEnd`). */
export function refillEnd(end: MutableEnd, report: QuantumReport, workerId: number): QuantumEnd {
  end.splitId = report.splitId;
  end.workerId = workerId;
  end.startNanos = report.startNanos;
  end.endNanos = report.endNanos;
  end.ranNanos = Math.max(0, report.endNanos - report.startNanos);
  end.cpuNanos = report.cpuNanos;
  end.workNanos = report.workNanos;
  end.outcome = report.outcome;
  end.blockedNanos = report.blockedNanos;
  end.error = report.error;
  end.cause = report.cause;
  end.result = report.result;
  return end as QuantumEnd;
}

/** A split that could not run to a report: its worker died (`WORKER_LOST`) or its input failed. */
export function failedEnd(
  splitId: number,
  workerId: number,
  startNanos: number,
  endNanos: number,
  error: string,
  errorCode: NonNullable<QuantumEnd['errorCode']>,
): QuantumEnd {
  return {
    splitId,
    workerId,
    startNanos,
    endNanos,
    ranNanos: endNanos - startNanos,
    workNanos: 0,
    outcome: 'failed',
    error,
    errorCode,
  };
}
