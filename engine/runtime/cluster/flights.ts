/**
 * What the coordinator has in flight: one record per dispatch sent as a BullMQ job and not yet
 * ended, found by job id (its end arrives by job), by split, and per worker id in the order sent
 * (the first is the one running on the node worker, those behind it are queued there). `take` is
 * the only way out, so whoever takes a flight first is the one that ends it: every dispatch ends
 * once.
 */
import type { Dispatch } from '../backend.ts';
import type { FleetNode } from './fleet.ts';

export interface Flight {
  readonly jobId: string;
  readonly dispatch: Dispatch;
  readonly node: FleetNode;
  /** Coordinator time the job was sent (ns). */
  readonly sentAt: number;
  /**
   * Coordinator time it became the first on its worker (ns): its send, or the end of the flight
   * before it there. From then on it runs on the node (as far as the coordinator can tell).
   */
  headAt: number;
  /** Redis has the job (its `add` resolved). */
  added: boolean;
  /** Sent to be queued behind the quantum running on its worker (`enqueue`), not to an idle one. */
  readonly queued: boolean;
  /**
   * The quantum before it on its worker ran its whole length, so it ended when it was expected
   * to: a wait for this one there means it arrived late, not that that one ended early.
   */
  afterFullQuantum: boolean;
  cancelAsked: boolean;
}

const NONE: readonly Flight[] = [];

export class Flights {
  private readonly byJob = new Map<string, Flight>();
  private readonly byWorker: Flight[][] = [];
  private readonly bySplit = new Map<number, Flight>();

  get size(): number {
    return this.byJob.size;
  }

  add(flight: Flight): void {
    this.byJob.set(flight.jobId, flight);
    (this.byWorker[flight.dispatch.workerId] ??= []).push(flight);
    this.bySplit.set(flight.dispatch.splitId, flight);
  }

  job(jobId: string): Flight | undefined {
    return this.byJob.get(jobId);
  }

  split(splitId: number): Flight | undefined {
    return this.bySplit.get(splitId);
  }

  /** The flight running on `workerId` (the first sent there and not ended), or null. */
  worker(workerId: number): Flight | null {
    return this.byWorker[workerId]?.[0] ?? null;
  }

  /** Every flight on `workerId`, the running one first (do not keep: it changes). */
  onWorker(workerId: number): readonly Flight[] {
    return this.byWorker[workerId] ?? NONE;
  }

  /** Every flight, as a copy (ending one while visiting is safe). */
  all(): Flight[] {
    return [...this.byJob.values()];
  }

  /**
   * Removes the flight of `jobId` and returns it; undefined when it has ended already. The
   * flight next on its worker becomes the running one from `at`.
   */
  take(jobId: string, at: number): Flight | undefined {
    const flight = this.byJob.get(jobId);
    if (flight === undefined) return undefined;
    this.byJob.delete(jobId);
    this.bySplit.delete(flight.dispatch.splitId);
    const list = this.byWorker[flight.dispatch.workerId]!;
    const i = list.indexOf(flight);
    list.splice(i, 1);
    if (i === 0 && list.length > 0) list[0]!.headAt = Math.max(list[0]!.headAt, at);
    return flight;
  }
}
