/**
 * The executor's construction options and the visitor types its measuring hooks take
 * (`Executor.onQuantumWall`, `onDispatchWait`, `onAdmissionQueued`).
 */

/** Told each quantum's wall time as it ends, and whether it ended blocked (Trino's split). */
export type QuantumWallVisitor = (wallNanos: number, blocked: boolean) => void;

/**
 * A split's wait for a worker, as it ends (at its dispatch) or so far: its job's class (the span
 * ring's class index, `spans.className`), the wait in ns, and its base priority. As Trino's
 * split wait time, a wait runs from when the split entered the ready queue (created, or, for a
 * leaf split, admitted; requeued; woken; retry backoff over) to its dispatch (one queued behind a
 * running quantum, `pipeline`: to its start). A leaf split's time in its task's admission FIFO
 * before that is its *queued time* (Trino's `splitQueuedTime`), reported to the same kind of
 * visitor through `Executor.onAdmissionQueued`.
 */
export type WaitVisitor = (clsIndex: number, waitNanos: number, basePriority: number) => void;

export interface ExecutorOptions {
  /** Gantt spans kept (ring); older ones are dropped and counted by readers. */
  readonly spanCapacity?: number;
  readonly eventCapacity?: number;
  /** Ended jobs remembered for job tables (and `findJobs`), per kind: succeeded, and not. */
  readonly recentJobs?: number;
  /** Entries of the job trail (`jobDetail`), job-trail.ts. */
  readonly jobTrailCapacity?: number;
  /**
   * Keep dispatches queued behind each busy worker's quantum, on a backend that can (threads:
   * `queueableWorkers`/`enqueue`), so a worker goes on to its next quantum without a round trip
   * through the main thread: one, or on a backend with `queueRoom` (threads) as many as are
   * expected to run within one quantum, a kernel's recent quanta saying how long its splits take
   * (a split that ran before, or whose kernel never ran, counts as a whole quantum, so nothing
   * is queued behind long work; a backend's `queueAheadNanos` may ask for more). Splits are taken
   * from the policy in its order, that much early; charging and levels are as without it, and a
   * queued split's wait ends when it starts on its worker (the quantum before it ended), not at
   * its dispatch. A worker that goes idle with nothing ready takes back a split queued elsewhere
   * that has not started. Default off (the library's `Scheduler` and, on the cluster, `schedlab
   * run`/`serve` turn it on).
   */
  readonly pipeline?: boolean;
}
