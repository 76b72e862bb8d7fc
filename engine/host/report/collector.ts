/**
 * Listens to one executor for a run and folds what happens into bounded state: per-class stats
 * (job ends, and every wait of a split for a worker, recorded as it ends), per-level and per-class
 * scheduled time and per-task time (from the span ring, read every step so nothing is
 * overwritten unread), Jain's index over jobs and across tenants, an optional trace window, and Trino's status
 * lines.
 */
import { ExecutorStatsView } from './executor-stats.ts';
import type { Executor, JobEnd } from '../../runtime/executor/executor.ts';
import { TraceWindow } from '../trace/trace-window.ts';
import { ClassStats } from './class-stats.ts';
import { Jain, TenantJain } from './summary-stats.ts';
import type { ErrorCode } from '../../../shared/errors.ts';

/** Why jobs did not succeed: how many, by error code, with the first one's reason. */
export interface FailureRow {
  jobs: number;
  /** The first such job's error, as its job row shows it (clipped). */
  first: string;
}

/** How much of the first reason a report keeps per code. */
const MAX_REASON = 300;

/** Counts one job (or graph) that did not succeed under `code`, keeping the first one's reason. */
export function countFailure(failures: Map<string, FailureRow>, code: string, why: string): void {
  const row = failures.get(code);
  if (row !== undefined) row.jobs++;
  else failures.set(code, { jobs: 1, first: why.slice(0, MAX_REASON) });
}

/** The report's `failures`, absent when none. */
export function failuresField(failures: ReadonlyMap<string, FailureRow>): {
  failures?: Record<string, FailureRow>;
} {
  if (failures.size === 0) return {};
  return { failures: Object.fromEntries([...failures].map(([k, v]) => [k, { ...v }])) };
}

export class RunCollector {
  readonly classes = new Map<string, ClassStats>();
  readonly levelNanos: number[] = [0, 0, 0, 0, 0];
  /** Deepest ready queue seen per level, sampled every step. */
  readonly maxDepth: number[] = [0, 0, 0, 0, 0];
  readonly jain = new Jain();
  readonly tenantJain = new TenantJain();
  /** Scheduled time per live task (Trino status lines need the levels of running tasks). */
  readonly taskNanos: { get(taskId: number): number | undefined } = {
    get: (taskId) => this.executor.taskScheduledNanos(taskId),
  };
  readonly trace: TraceWindow | null;
  lastEndNanos = 0;
  spansDropped = 0;
  /** Jobs that failed, were cancelled or rejected, by code (a bounded catalogue). */
  readonly failures = new Map<ErrorCode, FailureRow>();
  splitsCompleted = 0;
  private cursor = 0;
  private readonly unsubscribe: (() => void)[];
  /** Stats by the span ring's class index (names are interned ring-wide and never change). */
  private readonly byRingClass: (ClassStats | undefined)[] = [];
  /** Trino's executor statistics over the run (executor-stats.ts). */
  readonly executorStats: ExecutorStatsView;

  constructor(
    private readonly executor: Executor,
    classOrder: readonly string[],
    private readonly originNanos: number,
    traceCapacity: number | null,
  ) {
    for (const name of classOrder) this.classes.set(name, new ClassStats());
    this.trace = traceCapacity === null ? null : new TraceWindow(traceCapacity);
    this.cursor = executor.spans.total;
    this.unsubscribe = [
      executor.onJobEnd((e) => this.onJobEnd(e)),
      executor.onSplitEnd(() => this.splitsCompleted++),
    ];
    this.executorStats = new ExecutorStatsView(executor);
    executor.onDispatchWait(this.recordWait);
    executor.onAdmissionQueued(this.recordQueued);
  }

  stats(cls: string): ClassStats {
    let s = this.classes.get(cls);
    if (s === undefined) this.classes.set(cls, (s = new ClassStats()));
    return s;
  }

  /** Reads the spans recorded since the last call. */
  poll(): void {
    if (this.trace === null) this.fold();
    else this.pollColumns();
  }

  /**
   * `pollColumns` without the copy into columns (nothing else needs them when no trace is kept):
   * the same fold, straight off the ring, in the same order.
   */
  private fold(): void {
    const ring = this.executor.spans;
    const total = ring.total;
    const first = Math.max(this.cursor, ring.oldest);
    this.spansDropped += Math.max(0, first - this.cursor);
    this.cursor = total;
    const byClass = this.byRingClass;
    const { start: starts, end: ends, level: levels, cls: classes } = ring;
    for (let n = first; n < total; n++) {
      const i = ring.slotAt(n);
      const d = ends[i]! - starts[i]!;
      const level = levels[i]!;
      this.levelNanos[level] = (this.levelNanos[level] ?? 0) + d;
      const cls = classes[i]!;
      let stats = byClass[cls];
      if (stats === undefined) byClass[cls] = stats = this.stats(ring.className(cls));
      stats.scheduledNanos += d;
    }
    this.foldRequeueWaits();
  }

  private pollColumns(): void {
    const read = this.executor.spans.read(this.cursor);
    this.cursor = read.cursor;
    this.spansDropped += read.dropped;
    // The trace lacks them too: it counts them with its own, as a graph run's does.
    this.trace?.addDropped(read.dropped);
    const c = read.columns;
    // Millions of quanta pass through here in a Trino experiment: resolve names once per read.
    const byName = c.names.map((n) => this.stats(n));
    for (let i = 0; i < c.count; i++) {
      const start = c.start[i] ?? 0;
      const end = c.end[i] ?? 0;
      const d = end - start;
      const level = c.level[i] ?? 0;
      this.levelNanos[level] = (this.levelNanos[level] ?? 0) + d;
      const stats = byName[c.cls[i] ?? 0];
      if (stats === undefined) continue;
      stats.scheduledNanos += d;
    }
    this.trace?.addColumns(c);
    this.foldRequeueWaits();
  }

  /** The executor keeps the longest yield-to-next-quantum gap per class (no per-quantum lookup). */
  private foldRequeueWaits(): void {
    for (const { cls, nanos } of this.executor.maxRequeueWaits()) {
      if (nanos === 0) continue;
      const s = this.stats(cls);
      if (nanos > s.maxRequeueWaitNanos) s.maxRequeueWaitNanos = nanos;
    }
  }

  /**
   * Per-level queue depth (the deepest seen, for the report) and, when a trace is kept, a counter
   * sample of depth and scheduled time. Called every step (100 ms of sim time, 50 ms on threads).
   */
  sample(): void {
    const levels = this.executor.levels();
    for (const l of levels) {
      if (l.depth > (this.maxDepth[l.level] ?? 0)) this.maxDepth[l.level] = l.depth;
    }
    if (this.trace === null) return;
    this.trace.addSample({
      timeNanos: this.executor.now(),
      depth: levels.map((l) => l.depth),
      scheduledNanos: levels.map((l) => l.scheduledNanos),
      chargedNanos: levels.map((l) => l.chargedNanos ?? l.scheduledNanos),
      labels: levels.map((l) => l.label),
    });
  }

  /** Reads the last spans and records the waits still in progress, up to now (once). */
  close(): void {
    this.poll();
    for (const u of this.unsubscribe) u();
    this.executor.forEachWaitInProgress(this.recordWait);
    this.executor.forEachQueuedInProgress(this.recordQueued);
  }

  /**
   * A wait runs from when a split entered the ready queue — created, or for a leaf split admitted,
   * back in the queue after a quantum, woken from blocked, or its retry backoff over — to its
   * dispatch. That is once per quantum, so the stats are found by the span ring's class index,
   * with no Map lookup.
   */
  private readonly recordWait = (cls: number, waitNanos: number): void => {
    this.byRing(cls).wait.record(waitNanos);
  };

  /** A leaf split's queued time: its creation to its admission (Trino's `splitQueuedTime`). */
  private readonly recordQueued = (cls: number, queuedNanos: number): void => {
    this.byRing(cls).queued.record(queuedNanos);
  };

  private byRing(cls: number): ClassStats {
    let stats = this.byRingClass[cls];
    if (stats === undefined) {
      this.byRingClass[cls] = stats = this.stats(this.executor.spans.className(cls));
    }
    return stats;
  }

  private onJobEnd(e: JobEnd): void {
    this.stats(e.class).onJobEnd(e.state, e.endNanos - e.submitNanos, e.basePriority);
    if (e.state !== 'succeeded') this.noteFailure(e);
    if (e.state !== 'rejected') {
      const latency = e.endNanos - e.submitNanos;
      // Service rate: the share of its lifetime a job was running (per split); equal across
      // jobs means everyone progressed alike.
      if (latency > 0) this.jain.add(e.scheduledNanos / latency / Math.max(1, e.splits));
      if (e.tenant !== undefined) {
        const weight = this.executor.tenantWeight(e.tenant);
        this.tenantJain.add(e.tenant, e.submitNanos, e.endNanos, e.scheduledNanos, weight);
      }
      if (e.endNanos > this.lastEndNanos) this.lastEndNanos = e.endNanos;
    }
  }

  private noteFailure(e: JobEnd): void {
    const why = `job ${e.jobId} (${e.class}): ${e.error ?? e.state}`;
    countFailure(this.failures, e.errorCode ?? 'KERNEL_FAILED', why);
  }

  get elapsedNanos(): number {
    return this.executor.now() - this.originNanos;
  }
}
