/**
 * What the coordinator has in flight: one record per dispatch sent as a BullMQ job and not yet
 * ended, found by job id (its end arrives by job), by worker id and by split. `take` is the only
 * way out, so whoever takes a flight first is the one that ends it: every dispatch ends once.
 */
import type { Dispatch } from '../backend.ts';
import type { FleetNode } from './fleet.ts';

export interface Flight {
  readonly jobId: string;
  readonly dispatch: Dispatch;
  readonly node: FleetNode;
  /** Coordinator time the job was sent (ns). */
  readonly sentAt: number;
  /** Redis has the job (its `add` resolved). */
  added: boolean;
  cancelAsked: boolean;
}

export class Flights {
  private readonly byJob = new Map<string, Flight>();
  private readonly byWorker: (Flight | null)[] = [];
  private readonly bySplit = new Map<number, Flight>();

  get size(): number {
    return this.byJob.size;
  }

  add(flight: Flight): void {
    this.byJob.set(flight.jobId, flight);
    this.byWorker[flight.dispatch.workerId] = flight;
    this.bySplit.set(flight.dispatch.splitId, flight);
  }

  job(jobId: string): Flight | undefined {
    return this.byJob.get(jobId);
  }

  split(splitId: number): Flight | undefined {
    return this.bySplit.get(splitId);
  }

  worker(workerId: number): Flight | null {
    return this.byWorker[workerId] ?? null;
  }

  /** Every flight, as a copy (ending one while visiting is safe). */
  all(): Flight[] {
    return [...this.byJob.values()];
  }

  /** Removes the flight of `jobId` and returns it; undefined when it has ended already. */
  take(jobId: string): Flight | undefined {
    const flight = this.byJob.get(jobId);
    if (flight === undefined) return undefined;
    this.byJob.delete(jobId);
    this.bySplit.delete(flight.dispatch.splitId);
    const w = flight.dispatch.workerId;
    if (this.byWorker[w] === flight) this.byWorker[w] = null;
    return flight;
  }
}
