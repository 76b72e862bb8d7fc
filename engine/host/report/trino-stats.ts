/**
 * What Trino's simulator prints (docs/design.md §9): a status line per second of
 * workload time (kept in a bounded ring), and a summary — completed tasks and splits per level,
 * histograms of processed and wait time by level and by spec, and per spec its tasks, splits per
 * task, required, scheduled and wait time.
 */
import { BucketHistogram } from './buckets.ts';

/** A completed task, its times in backend ns (TrinoStats divides them by `scale`). */
export interface TrinoTaskDone {
  spec: string;
  splits: number;
  requiredNanos: number;
  scheduledNanos: number;
  waitNanos: number;
}

export interface StatusSample {
  elapsedMs: number;
  splits: {
    total: number;
    running: number;
    leaf: number;
    intermediate: number;
    blocked: number;
    waiting: number;
    completed: number;
  };
  tasks: number;
  tasksPerLevel: number[];
  selectionsPerLevel: number[];
}

interface Group {
  tasks: number;
  splits: number;
  requiredNanos: number;
  scheduledNanos: number;
  waitNanos: number;
  processed: BucketHistogram;
  wait: BucketHistogram;
}

const group = (): Group => ({
  tasks: 0,
  splits: 0,
  requiredNanos: 0,
  scheduledNanos: 0,
  waitNanos: 0,
  processed: new BucketHistogram(),
  wait: new BucketHistogram(),
});

export interface TrinoSummaryJson {
  completedTasks: number;
  completedSplits: number;
  remainingTasks: number;
  byLevel: GroupJson[];
  bySpec: Record<string, GroupJson & { splitsPerTask: number }>;
  status: StatusSample[];
}

interface GroupJson {
  tasks: number;
  splits: number;
  requiredMs: number;
  scheduledMs: number;
  waitMs: number;
  processedHistogram: number[];
  waitHistogram: number[];
}

const ms = (ns: number) => Math.round(ns / 1e3) / 1e3;

function toJson(g: Group): GroupJson {
  return {
    tasks: g.tasks,
    splits: g.splits,
    requiredMs: ms(g.requiredNanos),
    scheduledMs: ms(g.scheduledNanos),
    waitMs: ms(g.waitNanos),
    processedHistogram: [...g.processed.counts],
    waitHistogram: [...g.wait.counts],
  };
}

export class TrinoStats {
  private readonly levels: Group[];
  private readonly specs = new Map<string, Group>();
  private readonly status: StatusSample[] = [];
  private statusWritten = 0;

  /**
   * `computeLevel` takes backend ns and must be the executor's own rule and thresholds, so a
   * task's level here is the level the executor had it at; `scale` (threads `timeScale`) turns
   * backend time back into workload time for the figures.
   */
  constructor(
    private readonly computeLevel: (scheduledNanos: number) => number,
    private readonly scale = 1,
    private readonly statusCapacity = 4096,
    levelCount = 5,
  ) {
    this.levels = Array.from({ length: levelCount }, group);
  }

  taskDone(done: TrinoTaskDone): void {
    const level = this.computeLevel(done.scheduledNanos);
    const k = this.scale;
    const t = {
      splits: done.splits,
      requiredNanos: done.requiredNanos / k,
      scheduledNanos: done.scheduledNanos / k,
      waitNanos: done.waitNanos / k,
    };
    let spec = this.specs.get(done.spec);
    if (spec === undefined) this.specs.set(done.spec, (spec = group()));
    for (const g of [this.levels[level], spec]) {
      if (g === undefined) continue;
      g.tasks++;
      g.splits += t.splits;
      g.requiredNanos += t.requiredNanos;
      g.scheduledNanos += t.scheduledNanos;
      g.waitNanos += t.waitNanos;
      g.processed.record(t.scheduledNanos);
      g.wait.record(t.waitNanos);
    }
  }

  addStatus(s: StatusSample): void {
    if (this.status.length < this.statusCapacity) this.status.push(s);
    else this.status[this.statusWritten % this.statusCapacity] = s;
    this.statusWritten++;
  }

  statusLines(): StatusSample[] {
    if (this.status.length < this.statusCapacity) return [...this.status];
    const i = this.statusWritten % this.statusCapacity;
    return [...this.status.slice(i), ...this.status.slice(0, i)];
  }

  toJson(remainingTasks: number, splitsPerTask: Record<string, number>): TrinoSummaryJson {
    const bySpec: TrinoSummaryJson['bySpec'] = {};
    for (const name of [...this.specs.keys()].sort()) {
      bySpec[name] = { ...toJson(this.specs.get(name)!), splitsPerTask: splitsPerTask[name] ?? 0 };
    }
    const byLevel = this.levels.map(toJson);
    return {
      completedTasks: byLevel.reduce((n, g) => n + g.tasks, 0),
      completedSplits: byLevel.reduce((n, g) => n + g.splits, 0),
      remainingTasks,
      byLevel,
      bySpec,
      status: this.statusLines(),
    };
  }
}
