/**
 * The job trail: what happened to each job's splits, for `jobDetail` (docs/jobs.md "Following
 * a job"). One bounded ring for all jobs, columnar in typed arrays like the span ring, so memory
 * stays flat however many jobs run and recording a quantum allocates nothing; a reader scans it
 * for one job. What the ring overwrote is gone: a detail says where its history starts.
 */
import { ERROR_CODES, type ErrorCode } from '../../../shared/errors.ts';

/** Entry kinds. Fields each uses: `t`, `t2`, `value`, `worker`, `level`, `outcome`, `code`. */
export const TrailKind = {
  /** A quantum: `t` start, `t2` end, `value` the wait before it (ns), worker, level, outcome, code. */
  run: 0,
  /** A leaf split passed admission at `t` after `value` ns queued. */
  admitted: 1,
  /** MLFQ: dispatched at `level` after its last quantum ran at `value`. */
  level: 2,
  /** Priority: dispatched at effective priority `value`, aged from its base `t2`. */
  aging: 3,
  /** The job's base priority set `t2` → `value` (split −1). */
  reprioritize: 4,
  /** A split ended: `outcome` indexes `SPLIT_END_STATES`, `code` its error. */
  splitEnd: 5,
  /** The job was submitted (split −1). */
  submit: 6,
} as const;
export type TrailKind = (typeof TrailKind)[keyof typeof TrailKind];

export const SPLIT_END_STATES = ['succeeded', 'failed', 'cancelled'] as const;

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];
const CODE_INDEX = new Map(CODES.map((c, i) => [c, i + 1]));

/** Entries the trail keeps unless told otherwise (about 45 bytes each). */
export const JOB_TRAIL_CAPACITY = 65_536;

export class JobTrail {
  readonly capacity: number;
  private written = 0;
  readonly t: Float64Array;
  readonly t2: Float64Array;
  readonly value: Float64Array;
  readonly job: Int32Array;
  readonly task: Int32Array;
  readonly split: Int32Array;
  readonly worker: Int32Array;
  readonly kind: Uint8Array;
  readonly level: Int16Array;
  readonly outcome: Int8Array;
  private readonly code: Uint8Array;

  constructor(capacity = JOB_TRAIL_CAPACITY) {
    this.capacity = capacity;
    this.t = new Float64Array(capacity);
    this.t2 = new Float64Array(capacity);
    this.value = new Float64Array(capacity);
    this.job = new Int32Array(capacity);
    this.task = new Int32Array(capacity);
    this.split = new Int32Array(capacity);
    this.worker = new Int32Array(capacity);
    this.kind = new Uint8Array(capacity);
    this.level = new Int16Array(capacity);
    this.outcome = new Int8Array(capacity);
    this.code = new Uint8Array(capacity);
  }

  /** Entries written since the engine started; the oldest held is `max(0, total − capacity)`. */
  get total(): number {
    return this.written;
  }

  record(
    kind: TrailKind,
    job: number,
    task: number,
    split: number,
    t: number,
    t2 = 0,
    value = 0,
    worker = -1,
    level = 0,
    outcome = 0,
    code?: ErrorCode,
  ): void {
    const i = this.written % this.capacity;
    this.kind[i] = kind;
    this.job[i] = job;
    this.task[i] = task;
    this.split[i] = split;
    this.t[i] = t;
    this.t2[i] = t2;
    this.value[i] = value;
    this.worker[i] = worker;
    this.level[i] = level;
    this.outcome[i] = outcome;
    this.code[i] = code === undefined ? 0 : (CODE_INDEX.get(code) ?? 0);
    this.written++;
  }

  /** The error code of slot `i`, if any. */
  codeAt(i: number): ErrorCode | undefined {
    const c = this.code[i]!;
    return c === 0 ? undefined : CODES[c - 1];
  }

  /** Backend time of the oldest entry held (0 when empty). */
  get sinceNanos(): number {
    if (this.written === 0) return 0;
    return this.t[Math.max(0, this.written - this.capacity) % this.capacity]!;
  }

  /** Calls `visit` with the slot of each of `jobId`'s entries, oldest first. */
  forJob(jobId: number, visit: (slot: number) => void): void {
    for (let n = Math.max(0, this.written - this.capacity); n < this.written; n++) {
      const i = n % this.capacity;
      if (this.job[i] === jobId) visit(i);
    }
  }
}
