/**
 * What callers hand the executor (docs/design.md §1): a job of tasks of splits. Checked at the door
 * with errors naming the field (`tasks[0].splits[2].work.totalNanos`), then trusted inside.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type { OutputBufferSpec } from '../../core/concurrency/output-buffer.ts';
import type { SplitWork } from '../backend.ts';

export interface SplitSpec {
  readonly kind: 'leaf' | 'intermediate';
  readonly work: SplitWork;
}

export interface TaskSpec {
  readonly splits: readonly SplitSpec[];
  /** An open task takes more splits later (`addSplits`) and ends only after `closeTask`. */
  readonly open?: boolean;
  /**
   * Its own limit on running leaf splits (Trino's `addTask(…, maxDriversPerTask)`): at most the
   * engine's `maxDriversPerTask`; below `guaranteedPerTask` it also lowers the task's guarantee.
   */
  readonly maxDriversPerTask?: number;
  /**
   * Its output buffer, whose utilisation steers the split concurrency controller
   * (`initialSplitConcurrency`); without one the task's utilisation is 0.
   */
  readonly outputBuffer?: OutputBufferSpec;
}

export interface JobSpec {
  readonly class: string;
  /** PRIO base priority 0..100 (smaller = more urgent); default 50. */
  readonly basePriority?: number;
  /** Failed attempts a split may retry; default 0. */
  readonly retries?: number;
  /**
   * The tenant it is for: under `query` fairness all jobs of a tenant share one fairness group
   * (records.ts `TenantGroup`). Absent: the job is its own group.
   */
  readonly tenant?: string;
  readonly tasks: readonly TaskSpec[];
}

function bad(field: string, requirement: string): SchedLabError {
  return new SchedLabError('INVALID_ARGUMENT', `${field} ${requirement}`, field);
}

export function checkPriority(p: unknown, field: string): number {
  if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p > 100) {
    throw bad(field, `must be an integer in 0..100 (got ${String(p)})`);
  }
  return p;
}

export function checkSplits(splits: unknown, field: string): readonly SplitSpec[] {
  if (!Array.isArray(splits)) throw bad(field, 'must be an array');
  for (let i = 0; i < splits.length; i++) {
    const s = splits[i] as Partial<SplitSpec> | undefined;
    const f = `${field}[${i}]`;
    if (s === null || typeof s !== 'object') throw bad(f, 'must be an object');
    if (s.kind !== 'leaf' && s.kind !== 'intermediate') {
      throw bad(`${f}.kind`, "must be 'leaf' or 'intermediate'");
    }
    const w = s.work;
    if (w === null || typeof w !== 'object') throw bad(`${f}.work`, 'must be an object');
    if (!(Number.isFinite(w.totalNanos) && w.totalNanos >= 0)) {
      throw bad(`${f}.work.totalNanos`, 'must be a finite number >= 0');
    }
    if (w.perCallNanos !== undefined && !(w.perCallNanos > 0)) {
      throw bad(`${f}.work.perCallNanos`, 'must be > 0');
    }
    if (w.blockedNanosPerCall !== undefined && !(w.blockedNanosPerCall >= 0)) {
      throw bad(`${f}.work.blockedNanosPerCall`, 'must be >= 0');
    }
  }
  return splits as readonly SplitSpec[];
}

export function checkJobSpec(spec: JobSpec, engineMaxDriversPerTask: number): void {
  if (spec === null || typeof spec !== 'object') throw bad('job', 'must be an object');
  if (typeof spec.class !== 'string' || spec.class.length === 0) {
    throw bad('class', 'must be a non-empty string');
  }
  if (spec.basePriority !== undefined) checkPriority(spec.basePriority, 'basePriority');
  if (spec.retries !== undefined && !(Number.isInteger(spec.retries) && spec.retries >= 0)) {
    throw bad('retries', 'must be an integer >= 0');
  }
  if (!Array.isArray(spec.tasks) || spec.tasks.length === 0) {
    throw bad('tasks', 'must be a non-empty array');
  }
  spec.tasks.forEach((t, i) => {
    checkSplits(t?.splits, `tasks[${i}].splits`);
    checkTaskMaxDrivers(t.maxDriversPerTask, engineMaxDriversPerTask, `tasks[${i}]`);
    if (t.outputBuffer !== undefined) checkOutputBuffer(t.outputBuffer, `tasks[${i}].outputBuffer`);
  });
}

/** Trino's `addTask` check: a task's own driver limit never exceeds the engine's. */
function checkTaskMaxDrivers(max: unknown, engineMax: number, task: string): void {
  if (max === undefined) return;
  const field = `${task}.maxDriversPerTask`;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) {
    throw bad(field, `must be an integer >= 1 (got ${String(max)})`);
  }
  if (max > engineMax) {
    throw bad(field, `${max} must be <= the engine's maxDriversPerTask ${engineMax}`);
  }
}

function checkOutputBuffer(b: OutputBufferSpec, field: string): void {
  if (b === null || typeof b !== 'object') throw bad(field, 'must be an object');
  if (!(Number.isFinite(b.capacity) && b.capacity > 0)) {
    throw bad(`${field}.capacity`, `must be a finite number > 0 (got ${String(b.capacity)})`);
  }
  for (const k of ['producedPerSec', 'consumedPerSec'] as const) {
    if (!(Number.isFinite(b[k]) && b[k] >= 0)) {
      throw bad(`${field}.${k}`, `must be a finite number >= 0 (got ${String(b[k])})`);
    }
  }
}
