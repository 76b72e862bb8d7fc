/**
 * Turns a workload's job classes into executor submissions over backend time: each class has a
 * lazy arrival cursor (engine/core/workload/arrivals.ts) and one pending timer, so an open-ended
 * Poisson class costs O(1) memory. Randomness comes from per-class forks of the seeded Rng, so a
 * class's jobs do not change when another class is added.
 */
import { frozenInput } from '../../../shared/job.ts';
import type { JobClass } from '../../../shared/workload.ts';
import { arrivals, type ArrivalCursor } from '../../core/workload/arrivals.ts';
import { drawJob } from '../../core/workload/jobs.ts';
import { fork, type Rng } from '../../../shared/lib/rng.ts';
import type { Executor } from '../executor/executor.ts';

export interface ClassDriverOptions {
  /** Backend time (ns) the workload's time 0 maps to. */
  readonly originNanos: number;
  /** threads `timeScale` (1 on the simulator). */
  readonly scale: number;
  /** Arrivals stop here (ns after origin); Infinity when the workload has no duration. */
  readonly untilNanos: number;
}

interface ClassState {
  readonly klass: JobClass;
  readonly cursor: ArrivalCursor;
  readonly rng: Rng;
  cancel: (() => void) | null;
}

export class ClassDriver {
  private readonly states: ClassState[];
  private pending = 0;
  private stopped = false;
  /** Jobs submitted, by class name. */
  readonly submitted = new Map<string, number>();

  constructor(
    private readonly executor: Executor,
    classes: readonly JobClass[],
    rng: Rng,
    private readonly options: ClassDriverOptions,
  ) {
    this.states = classes.map((klass) => ({
      klass: withFrozenInput(klass),
      cursor: arrivals(fork(rng), klass.arrival, options.scale, options.untilNanos),
      rng: fork(rng),
      cancel: null,
    }));
  }

  /** True once every class has submitted its last job (or the driver was stopped). */
  get finished(): boolean {
    return this.stopped || this.pending === 0;
  }

  start(): void {
    for (const s of this.states) this.schedule(s);
  }

  stop(): void {
    this.stopped = true;
    for (const s of this.states) s.cancel?.();
  }

  private schedule(s: ClassState): void {
    const at = s.cursor.next();
    if (at === null) return;
    this.pending++;
    s.cancel = this.executor.backend.setTimer(this.options.originNanos + at, () => {
      this.pending--;
      s.cancel = null;
      if (this.stopped) return;
      // A timer's throw would take the whole process down (a host, a server). The schema bounds
      // every drawn number, so this is a last guard: the class stops, said on the timeline, and
      // the engine and the other classes run on.
      try {
        this.submit(s);
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        this.executor.record('workload-error', `class ${s.klass.name} stopped: ${why}`);
        return;
      }
      this.schedule(s);
    });
  }

  private submit(s: ClassState): void {
    this.executor.submitJob(drawJob(s.rng, s.klass, this.options.scale));
    this.submitted.set(s.klass.name, (this.submitted.get(s.klass.name) ?? 0) + 1);
  }
}

/**
 * `klass` with a frozen copy of its input, which every split it draws shares and the executor
 * walks once (shared/job.ts `frozenInput`), not once a split; a later change to the document's
 * input reaches no job.
 */
function withFrozenInput(klass: JobClass): JobClass {
  const input = klass.work.input;
  if (input === undefined) return klass;
  return { ...klass, work: { ...klass.work, input: frozenInput(input) } };
}
