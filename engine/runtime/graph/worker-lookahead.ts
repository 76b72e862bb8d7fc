/**
 * The central executor's view of its lookahead (central-executor.ts header): which node is queued
 * behind each worker's running quantum, and when each running quantum should end by its node's
 * declared cost — so the next ready node goes to the worker expected to be free first, as it would
 * without lookahead. Indexed by worker id (at most `MAX_WORKERS` of the backend).
 */
export class WorkerLookahead {
  /** Node queued on each worker, −1 for none. */
  private readonly queuedOn: number[] = [];
  /** Expected end of each worker's running quantum (backend ns). */
  private readonly busyUntil: number[] = [];

  started(workerId: number, expectedEnd: number): void {
    this.busyUntil[workerId] = expectedEnd;
  }

  queued(workerId: number, v: number): void {
    this.queuedOn[workerId] = v;
  }

  /** Sorts `workers` in place, the one expected to be free first leading. */
  byExpectedEnd(workers: number[]): number[] {
    if (workers.length > 1) {
      workers.sort((a, b) => (this.busyUntil[a] ?? 0) - (this.busyUntil[b] ?? 0));
    }
    return workers;
  }

  /**
   * A quantum of node `v` ended on `workerId` at `endNanos`. Returns false when `v` was the node
   * queued there, i.e. it never ran (the backend handed it back); otherwise the node queued behind
   * it, if any, has just started, and `remaining(node)` says how long it should run.
   */
  ended(v: number, workerId: number, endNanos: number, remaining: (v: number) => number): boolean {
    const q = this.queuedOn[workerId] ?? -1;
    if (q < 0) return true;
    this.queuedOn[workerId] = -1;
    if (q === v) return false;
    this.busyUntil[workerId] = endNanos + remaining(q);
    return true;
  }

  /** Takes back the first queued node `revoke` accepts (it had not started), or −1. */
  takeBack(revoke: (v: number) => boolean): number {
    for (let w = 0; w < this.queuedOn.length; w++) {
      const v = this.queuedOn[w]!;
      if (v >= 0 && revoke(v)) {
        this.queuedOn[w] = -1;
        return v;
      }
    }
    return -1;
  }
}
