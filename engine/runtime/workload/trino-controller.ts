/**
 * Trino's `SimulationController` (docs/design.md §9) over our executor. Every
 * `controllerIntervalMs` (500 ms) of backend time it
 * 1. replaces completed tasks while their spec is enabled (a spec with a total task count stops
 *    creating tasks once it has created that many), and
 * 2. tops up running tasks: a LEAF task keeps at most `maxOutstandingLeafSplits` (3) splits
 *    outstanding, each drawn fresh; an INTERMEDIATE task enqueues all its remaining splits at
 *    once, all from the one split specification drawn when the task was created.
 * "Clear pending queue" pauses top-ups until waiting ≤ intermediate − blocked splits.
 *
 * Each Trino task is one job of one open task (class = spec name); it is closed once all its
 * splits have completed. Evident intent over the letter: Trino skips top-ups of a spec once it
 * is disabled, which would leave its last tasks unfinished forever; here they still finish.
 */
import type { TimelineStep, TrinoSimulation, TrinoSpec } from '../../../shared/workload.ts';
import { generatorCost, scaleCost } from '../../core/workload/jobs.ts';
import { fork, type Rng } from '../../../shared/lib/rng.ts';
import type { SplitCost } from '../../core/workload/trino-generators.ts';
import type { Executor, SplitEnd } from '../executor/executor.ts';
import type { SplitSpec } from '../executor/job-spec.ts';
import type { SplitWork } from '../backend.ts';
import { isSchedLabError } from '../../../shared/errors.ts';

export interface TrinoTask {
  readonly spec: TrinoSpec;
  readonly jobId: number;
  readonly taskId: number;
  readonly createdNanos: number;
  /** Intermediate tasks: the one specification all their splits share. */
  readonly shared: SplitCost | null;
  added: number;
  completed: number;
  requiredNanos: number;
  scheduledNanos: number;
  waitNanos: number;
  done: boolean;
}

interface SpecState {
  readonly spec: TrinoSpec;
  readonly rng: Rng;
  enabled: boolean;
  created: number;
  completed: number;
  readonly running: TrinoTask[];
}

export interface TrinoControllerOptions {
  readonly originNanos: number;
  readonly scale: number;
  readonly onTaskCreated?: (task: TrinoTask) => void;
  /** Called for a task whose job ended before its splits completed (cancelled, failed). */
  readonly onTaskAborted?: (task: TrinoTask) => void;
  /** Called for every task whose splits have all completed. */
  readonly onTaskDone?: (task: TrinoTask) => void;
}

export class TrinoController {
  private readonly specs: SpecState[];
  private readonly byTask = new Map<number, TrinoTask>();
  private readonly byJob = new Map<number, TrinoTask>();
  /** The timeline's timers (one per step) and the one pending controller tick. */
  private readonly timers: (() => void)[] = [];
  private cancelTick: (() => void) | null = null;
  private clearing = false;
  private stopped = false;
  private liveIntermediate = 0;
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly executor: Executor,
    private readonly sim: TrinoSimulation,
    rng: Rng,
    private readonly options: TrinoControllerOptions,
  ) {
    this.specs = sim.specs.map((spec) => ({
      spec,
      rng: fork(rng),
      enabled: false,
      created: 0,
      completed: 0,
      running: [],
    }));
    this.unsubscribe = [
      executor.onSplitEnd((e) => this.onSplitEnd(e)),
      executor.onJobEnd((e) => this.onJobEnd(e.jobId)),
    ];
  }

  /** Tasks per spec: created, completed and running now. */
  stats(): {
    name: string;
    created: number;
    completed: number;
    running: number;
    enabled: boolean;
  }[] {
    return this.specs.map((s) => ({
      name: s.spec.name,
      created: s.created,
      completed: s.completed,
      running: s.running.length,
      enabled: s.enabled,
    }));
  }

  /** Running tasks (for status lines: their levels). */
  runningTasks(): TrinoTask[] {
    return this.specs.flatMap((s) => s.running);
  }

  /** Intermediate splits added and not yet ended (Trino's `getIntermediateSplits`). */
  get liveIntermediateSplits(): number {
    return this.liveIntermediate;
  }

  get clearingPendingQueue(): boolean {
    return this.clearing;
  }

  start(): void {
    const { originNanos, scale } = this.options;
    for (const step of this.sim.timeline) {
      this.timers.push(
        this.executor.backend.setTimer(originNanos + Math.round(step.atMs * 1e6 * scale), () =>
          this.apply(step),
        ),
      );
    }
    const period = Math.max(1, Math.round(this.sim.controllerIntervalMs * 1e6 * scale));
    // One pending tick at a time: a controller that runs for hours holds one timer, not one per
    // tick ever run.
    const tick = (at: number) => {
      this.cancelTick = this.executor.backend.setTimer(at, () => {
        this.cancelTick = null;
        if (this.stopped) return;
        this.replaceCompletedTasks();
        this.scheduleSplits();
        tick(at + period);
      });
    };
    tick(originNanos);
  }

  stop(): void {
    this.stopped = true;
    for (const cancel of this.timers) cancel();
    this.timers.length = 0;
    this.cancelTick?.();
    this.cancelTick = null;
    for (const u of this.unsubscribe) u();
  }

  private apply(step: TimelineStep): void {
    if (this.stopped) return;
    const state = 'spec' in step ? this.specs.find((s) => s.spec.name === step.spec) : undefined;
    switch (step.action) {
      case 'enable':
        if (state && !state.enabled) {
          state.enabled = true;
          for (let i = 0; i < state.spec.concurrentTasks; i++) this.createTask(state);
        }
        break;
      case 'disable':
        if (state) state.enabled = false;
        break;
      case 'clear':
        this.clearing = true;
        break;
      case 'mark':
        break;
    }
    this.executor.record(
      'workload',
      step.action === 'mark'
        ? step.label
        : `${step.action}${'spec' in step ? ` ${step.spec}` : ''}`,
    );
  }

  private canCreate(s: SpecState): boolean {
    return s.enabled && (s.spec.totalTasks === undefined || s.created < s.spec.totalTasks);
  }

  private createTask(s: SpecState): void {
    if (!this.canCreate(s)) return;
    const jobId = this.executor.submitJob({
      class: s.spec.name,
      tasks: [
        s.spec.maxDriversPerTask === undefined
          ? { splits: [], open: true }
          : { splits: [], open: true, maxDriversPerTask: s.spec.maxDriversPerTask },
      ],
    });
    const taskId = this.executor.taskIds(jobId)[0];
    if (taskId === undefined) return; // rejected by the bounded queue: counted by the executor
    const shared = s.spec.type === 'intermediate' ? this.draw(s) : null;
    const task: TrinoTask = {
      spec: s.spec,
      jobId,
      taskId,
      createdNanos: this.executor.now(),
      shared,
      added: 0,
      completed: 0,
      requiredNanos: 0,
      scheduledNanos: 0,
      waitNanos: 0,
      done: false,
    };
    s.created++;
    s.running.push(task);
    this.byTask.set(taskId, task);
    this.byJob.set(jobId, task);
    this.options.onTaskCreated?.(task);
  }

  private draw(s: SpecState): SplitCost {
    return scaleCost(generatorCost(s.rng, s.spec.generator), this.options.scale);
  }

  private replaceCompletedTasks(): void {
    for (const s of this.specs) {
      for (let i = 0; i < s.running.length;) {
        const task = s.running[i]!;
        if (!task.done) {
          i++;
          continue;
        }
        s.running.splice(i, 1);
        s.completed++;
        this.createTask(s);
      }
    }
  }

  private scheduleSplits(): void {
    if (this.clearing) {
      const c = this.executor.counters;
      if (c.splitsQueued > this.liveIntermediate - c.splitsBlocked) return;
      this.clearing = false;
      this.executor.record('workload', 'cleared pending queue');
    }
    const max = this.sim.maxOutstandingLeafSplits;
    for (const s of this.specs) {
      for (const task of s.running) {
        if (task.done) continue;
        const outstanding = task.added - task.completed;
        const remaining = s.spec.splitsPerTask - task.added;
        const n = s.spec.type === 'leaf' ? Math.min(remaining, max - outstanding) : remaining;
        if (n > 0) this.addSplits(s, task, n);
      }
    }
  }

  private addSplits(s: SpecState, task: TrinoTask, n: number): void {
    const kind = s.spec.type;
    const splits: SplitSpec[] = [];
    for (let i = 0; i < n; i++) {
      const cost = task.shared ?? this.draw(s);
      // The schema's kernel is the backend's `KernelName | ModuleRef` with optional fields spelt out.
      splits.push({ kind, work: { kernel: s.spec.kernel as SplitWork['kernel'], ...cost } });
    }
    try {
      this.executor.addSplits(task.taskId, splits);
    } catch (e) {
      // The bounded queue is full: the executor has counted the rejected splits; the next tick
      // tries again, as Trino's controller would after its queue drained.
      if (isSchedLabError(e) && e.code === 'QUEUE_FULL') return;
      throw e;
    }
    for (const split of splits) task.requiredNanos += split.work.totalNanos;
    task.added += n;
    if (kind === 'intermediate') this.liveIntermediate += n;
  }

  private onSplitEnd(e: SplitEnd): void {
    const task = this.byTask.get(e.taskId);
    if (task === undefined) return;
    task.completed++;
    task.scheduledNanos += e.scheduledNanos;
    task.waitNanos += e.waitNanos;
    if (task.spec.type === 'intermediate') this.liveIntermediate--;
    if (task.completed >= task.spec.splitsPerTask && !task.done) {
      task.done = true;
      this.forget(task);
      this.options.onTaskDone?.(task);
      this.executor.closeTask(task.taskId);
    }
  }

  /**
   * A task's job ended before all its splits completed (cancelled from the app, or failed): it
   * counts as done, so the next tick replaces it, and its splits stop counting as live.
   */
  private onJobEnd(jobId: number): void {
    const task = this.byJob.get(jobId);
    if (task === undefined || task.done) return;
    task.done = true;
    if (task.spec.type === 'intermediate') this.liveIntermediate -= task.added - task.completed;
    this.forget(task);
    this.options.onTaskAborted?.(task);
  }

  private forget(task: TrinoTask): void {
    this.byTask.delete(task.taskId);
    this.byJob.delete(task.jobId);
  }
}
