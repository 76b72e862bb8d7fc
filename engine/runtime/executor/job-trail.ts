/**
 * The job trail: what happened to each job's splits, for `jobDetail` (docs/jobs.md "Following
 * a job"). One bounded ring for all jobs, one row of doubles per entry in one typed array, so memory
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

/** Entries the trail keeps unless told otherwise (64 bytes each: 4 MB). */
export const JOB_TRAIL_CAPACITY = 65_536;

/**
 * One entry is one row of `STRIDE` doubles, so recording touches one cache line: `t`, `t2`,
 * `value`, job, task, split, and the small fields packed into one integer (below 2^53):
 * kind + 16·outcome + 256·code + 2^16·level + 2^24·(worker + 1).
 */
const STRIDE = 8;
const PACK_OUTCOME = 16;
const PACK_CODE = 256;
const PACK_LEVEL = 65_536;
const PACK_WORKER = 16_777_216;

export class JobTrail {
  readonly capacity: number;
  private written = 0;
  /** Slot the next entry goes to (`written` mod `capacity`, kept without a division). */
  private cursor = 0;
  private readonly rows: Float64Array;

  constructor(capacity = JOB_TRAIL_CAPACITY) {
    this.capacity = capacity;
    this.rows = new Float64Array(capacity * STRIDE);
  }

  /** Entries written since the engine started; the oldest held is `max(0, total − capacity)`. */
  get total(): number {
    return this.written;
  }

  /** `level` is 0..255 (MLFQ level or priority band), `worker` −1..2^28. */
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
    const r = this.cursor * STRIDE;
    const rows = this.rows;
    rows[r] = t;
    rows[r + 1] = t2;
    rows[r + 2] = value;
    rows[r + 3] = job;
    rows[r + 4] = task;
    rows[r + 5] = split;
    const c = code === undefined ? 0 : (CODE_INDEX.get(code) ?? 0);
    rows[r + 6] =
      kind +
      PACK_OUTCOME * outcome +
      PACK_CODE * c +
      PACK_LEVEL * level +
      PACK_WORKER * (worker + 1);
    this.advance();
  }

  /**
   * A quantum (`TrailKind.run`), the one entry made per quantum: a method of its own with no
   * optional arguments and no code lookup unless it failed, since it runs on the hot path.
   */
  recordRun(
    job: number,
    task: number,
    split: number,
    start: number,
    end: number,
    wait: number,
    worker: number,
    level: number,
    outcome: number,
    code: ErrorCode | undefined,
  ): void {
    const r = this.cursor * STRIDE;
    const rows = this.rows;
    rows[r] = start;
    rows[r + 1] = end;
    rows[r + 2] = wait;
    rows[r + 3] = job;
    rows[r + 4] = task;
    rows[r + 5] = split;
    const c = code === undefined ? 0 : (CODE_INDEX.get(code) ?? 0);
    rows[r + 6] =
      TrailKind.run +
      PACK_OUTCOME * outcome +
      PACK_CODE * c +
      PACK_LEVEL * level +
      PACK_WORKER * (worker + 1);
    this.advance();
  }

  private advance(): void {
    this.written++;
    if (++this.cursor === this.capacity) this.cursor = 0;
  }

  // Reads by slot (as `forJob` visits them).
  t(i: number): number {
    return this.rows[i * STRIDE]!;
  }
  t2(i: number): number {
    return this.rows[i * STRIDE + 1]!;
  }
  value(i: number): number {
    return this.rows[i * STRIDE + 2]!;
  }
  task(i: number): number {
    return this.rows[i * STRIDE + 4]!;
  }
  split(i: number): number {
    return this.rows[i * STRIDE + 5]!;
  }
  kind(i: number): TrailKind {
    return (this.packed(i) % PACK_OUTCOME) as TrailKind;
  }
  outcome(i: number): number {
    return Math.floor(this.packed(i) / PACK_OUTCOME) % (PACK_CODE / PACK_OUTCOME);
  }
  level(i: number): number {
    return Math.floor(this.packed(i) / PACK_LEVEL) % (PACK_WORKER / PACK_LEVEL);
  }
  worker(i: number): number {
    return Math.floor(this.packed(i) / PACK_WORKER) - 1;
  }
  /** The error code of slot `i`, if any. */
  codeAt(i: number): ErrorCode | undefined {
    const c = Math.floor(this.packed(i) / PACK_CODE) % (PACK_LEVEL / PACK_CODE);
    return c === 0 ? undefined : CODES[c - 1];
  }

  /** Backend time of the oldest entry held (0 when empty). */
  get sinceNanos(): number {
    if (this.written === 0) return 0;
    return this.t(Math.max(0, this.written - this.capacity) % this.capacity);
  }

  /** Calls `visit` with the slot of each of `jobId`'s entries, oldest first. */
  forJob(jobId: number, visit: (slot: number) => void): void {
    const rows = this.rows;
    for (let n = Math.max(0, this.written - this.capacity); n < this.written; n++) {
      const i = n % this.capacity;
      if (rows[i * STRIDE + 3] === jobId) visit(i);
    }
  }

  private packed(i: number): number {
    return this.rows[i * STRIDE + 6]!;
  }
}
