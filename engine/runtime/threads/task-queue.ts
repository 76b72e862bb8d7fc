/**
 * What `TaskPool` needs from its queue: the PRIO queue's (engine/core/priority) push/pop — smaller
 * number first, FIFO among equals — and, when it ages priorities, `tick(now)`.
 */
export interface TaskQueue<T> {
  readonly size: number;
  /** Throws when the task cannot be queued (bad priority, queue full): `run` throws it on. */
  push(id: number, item: T, priority: number): void;
  pop(): { readonly item: T } | null;
  tick?(now: number): unknown;
}
