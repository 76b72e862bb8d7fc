/** The ids the PRIO queue accepts and the snapshot it hands out (docs/design.md §3.2). */
export type TaskId = number | string;

/** What the queue hands out: a snapshot, never its internal state. */
export interface QueuedTask<T> {
  readonly id: TaskId;
  readonly item: T;
  /** Base priority, as pushed or last updated. */
  readonly priority: number;
  /** Priority the queue ordered it by (base minus aging boost). */
  readonly effectivePriority: number;
  readonly readySince: number;
}
