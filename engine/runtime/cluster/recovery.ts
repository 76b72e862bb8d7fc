/**
 * Ending flights whose quantum end will never come through the queue events, from what Redis
 * still holds of their jobs: after a Redis outage, and on a node that left in good order.
 */
import { Job } from 'bullmq';
import type { Flight } from './flights.ts';
import type { QuantumResult } from './protocol.ts';

/** How the backend ends a flight (each a no-op on one that has ended already). */
export interface Settler {
  completed(jobId: string, result: QuantumResult): void;
  failed(jobId: string, reason: string): void;
  /** Never ran, or Redis lost it: no time, no work; the split is offered again. */
  unstarted(flight: Flight): void;
}

/** After an outage: a job Redis no longer has runs again; a finished one ends with its result. */
export async function reconcile(flights: Flight[], settle: Settler): Promise<void> {
  for (const flight of flights) {
    if (!flight.added) continue; // its `add` is still queued: the job will exist
    try {
      const state = await flight.node.queue.getJobState(flight.jobId);
      if (state === 'unknown') settle.unstarted(flight);
      else if (state === 'completed') await settleCompleted(flight, settle);
      else if (state === 'failed') settle.failed(flight.jobId, 'failed during the outage');
    } catch {
      return; // down again: the next `ready` reconciles
    }
  }
}

/**
 * A flight on a node that left in good order (it ran what it had taken): a job it finished ends
 * with its stored result; one it never took (sent as it was leaving) runs elsewhere. False when
 * Redis cannot say: the flight is then lost like a killed node's.
 */
export async function settleLeft(flight: Flight, settle: Settler): Promise<boolean> {
  try {
    const state = await flight.node.queue.getJobState(flight.jobId);
    if (state === 'completed') return await settleCompleted(flight, settle);
    if (state === 'active' || state === 'failed') return false;
    settle.unstarted(flight);
    return true;
  } catch {
    return false;
  }
}

async function settleCompleted(flight: Flight, settle: Settler): Promise<boolean> {
  const job = await Job.fromId(flight.node.queue, flight.jobId);
  if (job?.returnvalue == null) return false;
  settle.completed(flight.jobId, job.returnvalue as QuantumResult);
  return true;
}
