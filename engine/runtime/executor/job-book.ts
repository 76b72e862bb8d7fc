/**
 * Job bookkeeping: live jobs, job counters (`submitted = succeeded + failed + cancelled +
 * rejected + live`, always), recently ended jobs for job tables (a bounded ring), end listeners,
 * and `drain()` waiters. Every job passes through `end` or `reject` exactly once.
 *
 * A live job's row says `queued` until one of its splits has started a quantum, `running` from
 * then on (`liveState`, docs/jobs.md "Job states"); the record itself stays `running` (lifecycle.ts).
 */
import { CAUSE_CODE_MAX, JOB_ERROR_TEXT_MAX, clip, resultText } from './job-text.ts';
import { Ring } from '../../../shared/lib/ring.ts';
import type { ErrorCode } from '../../../shared/errors.ts';
import type { ErrorCause } from '../backend.ts';
import { matchesJob, type JobQuery } from '../../../shared/lib/job-query.ts';
import type { FindJobsResult, JobRow } from '../../../shared/protocol.ts';
import { SPLIT_STATE_NAMES, SplitState, checkJobTransition, type JobState } from './lifecycle.ts';
import type { ExecJob, ExecSplit, ExecTask } from './records.ts';
import { IdTable } from './id-table.ts';
import type { Steps, WorkBudget } from '../../core/graph/steps.ts';
import { runningByJob, type RunningNow } from './running-now.ts';
import { Tenants } from './tenants.ts';

export interface JobEnd {
  jobId: number;
  class: string;
  state: Exclude<JobState, 'running'>;
  basePriority: number;
  submitNanos: number;
  endNanos: number;
  scheduledNanos: number;
  /** Sum over the job's splits of their waits in the ready queue (not their queued time). */
  waitNanos: number;
  splits: number;
  /** The tenant it was submitted for (`JobSpec.tenant`). */
  tenant?: string;
  /** Why it failed, was cancelled or rejected, for people (`split 7: worker lost: …`). */
  error?: string;
  /**
   * The catalogue code of `error`: `KERNEL_FAILED` or `WORKER_LOST` (a split failed past its
   * retries), `CANCELLED` (by request or engine close), `QUEUE_FULL` (rejected).
   */
  errorCode?: ErrorCode;
  /**
   * What the job's one split returned (a user module's result), for a job of exactly one split;
   * a job of many splits hands each result to `SplitEnd.result` only. Never kept after the event.
   */
  result?: unknown;
  /** What its submitter kept with it (`submitCheckedJob`'s `owner`), when it kept something. */
  owner?: unknown;
  /** For a `rejected` job, the knob whose limit turned it away. */
  rejectedBy?: RejectingLimit;
  /**
   * For a job failed by one of its splits: that split's own reason, as its module or the backend
   * gave it (`error` is `split N: ` and this), for a submitter that does not name splits.
   */
  splitError?: string;
  /** For a `failed` job: what its failing split's user module threw, when it was an `Error`. */
  cause?: ErrorCause;
}

/** The knobs that reject a job at submission (`QUEUE_FULL`). */
export type RejectingLimit = 'maxQueued' | 'maxLivePerTenant';

export interface TaskEnd {
  taskId: number;
  jobId: number;
  /** Position of the task in its job spec. */
  index: number;
  state: Exclude<JobState, 'running' | 'rejected'>;
  endNanos: number;
}

/** A split blocked (its quantum ended `blocked`: it waits, holding no worker), or woke again. */
export interface SplitParked {
  splitId: number;
  jobId: number;
  blocked: boolean;
}

export interface SplitEnd {
  splitId: number;
  jobId: number;
  taskId: number;
  class: string;
  basePriority: number;
  state: 'succeeded' | 'failed' | 'cancelled';
  waitNanos: number;
  scheduledNanos: number;
  endNanos: number;
  /** `CANCELLED`, or the code of a failed split's last failure (`KERNEL_FAILED`, `WORKER_LOST`). */
  errorCode?: ErrorCode;
  /** What a succeeded split's user module returned (absent for built-in kernels and the sim). */
  result?: unknown;
  /** Why a graph job's split failed (`Executor.ownSplitFailures`): the kernel's message. */
  error?: string;
  /**
   * Cancelled while a quantum of it ran: `scheduledNanos` is its time before that quantum, which
   * is charged when it returns (`onSplitOffWorker` says when, with the split's whole time).
   */
  stillRunning?: true;
}

/** A split cancelled while its quantum ran (`SplitEnd.stillRunning`), off its worker now. */
export interface SplitOffWorker {
  splitId: number;
  jobId: number;
  /** All of its time, the quantum that ran on after its end included. */
  scheduledNanos: number;
  endNanos: number;
}

type Listener<T> = (value: T) => void;

function subscribe<T>(list: Listener<T>[], fn: Listener<T>): () => void {
  list.push(fn);
  return () => {
    const i = list.indexOf(fn);
    if (i >= 0) list.splice(i, 1);
  };
}

export class JobBook {
  readonly counts = {
    submitted: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
    rejected: 0,
    live: 0,
    splitsSucceeded: 0,
    splitsFailed: 0,
    splitsCancelled: 0,
    rejectedSplits: 0,
  };
  private readonly liveById = new IdTable<ExecJob>();
  /** Tenants by name; a tenant's live jobs are counted from submit to end, here. */
  readonly tenants = new Tenants();
  /** Ended jobs that succeeded, and those that did not (kept apart so failures stay in view). */
  private readonly succeeded: Ring<JobRow>;
  private readonly troubled: Ring<JobRow>;
  private readonly jobEnd: Listener<JobEnd>[] = [];
  private readonly taskEnd: Listener<TaskEnd>[] = [];
  private readonly splitEnd: Listener<SplitEnd>[] = [];
  private readonly splitParked: Listener<SplitParked>[] = [];
  private readonly splitOffWorker: Listener<SplitOffWorker>[] = [];
  private waiters: (() => void)[] = [];
  /**
   * The whole failure reason of an ended job in `troubled` whose row holds it cut, by job id, for
   * `jobDetail` (`detailRow`); an entry goes when the ring lets its row go.
   */
  private readonly wholeErrors = new Map<number, string>();

  constructor(recentCapacity: number) {
    this.succeeded = new Ring<JobRow>(recentCapacity);
    this.troubled = new Ring<JobRow>(recentCapacity);
  }

  onJobEnd(fn: Listener<JobEnd>): () => void {
    return subscribe(this.jobEnd, fn);
  }
  onTaskEnd(fn: Listener<TaskEnd>): () => void {
    return subscribe(this.taskEnd, fn);
  }
  onSplitEnd(fn: Listener<SplitEnd>): () => void {
    return subscribe(this.splitEnd, fn);
  }
  onSplitParked(fn: Listener<SplitParked>): () => void {
    return subscribe(this.splitParked, fn);
  }
  onSplitOffWorker(fn: Listener<SplitOffWorker>): () => void {
    return subscribe(this.splitOffWorker, fn);
  }

  /** Tells the listeners that `split` blocked (`blocked`) or woke. */
  parked(split: ExecSplit, blocked: boolean): void {
    if (this.splitParked.length === 0) return;
    const e: SplitParked = { splitId: split.id, jobId: split.job.id, blocked };
    for (const fn of this.splitParked) fn(e);
  }

  live(id: number): ExecJob | undefined {
    return this.liveById.get(id);
  }
  liveJobs(): ExecJob[] {
    return [...this.liveById.values()];
  }
  liveValues(): IterableIterator<ExecJob> {
    return this.liveById.values();
  }

  /** The record's state: `running` for every live job, queued or not (`liveState` tells them apart). */
  state(id: number): JobState | undefined {
    const job = this.liveById.get(id);
    if (job) return job.state;
    const ended = (r: JobRow) => r.id === id;
    // Ended rows hold an ended state, never `queued`.
    return (this.troubled.find(ended) ?? this.succeeded.find(ended))?.state as JobState | undefined;
  }

  /**
   * A live job's state for people: `running` once one of its splits has started a quantum on a
   * worker (`ExecJob.started`, set by the dispatcher's `began`), else `queued` — its splits are
   * all held by admission, waiting in the ready queue or dispatched behind a busy worker without
   * having started there. One field: it read the job's live splits, 56–75 ms a frame with 150
   * unstarted jobs of 10,000 splits.
   */
  liveState(job: ExecJob): 'queued' | 'running' {
    return job.started ? 'running' : 'queued';
  }

  start(job: ExecJob): void {
    this.counts.submitted++;
    this.counts.live++;
    this.liveById.set(job.id, job);
  }

  reject(job: ExecJob, now: number, reason: string, limit: RejectingLimit): void {
    this.counts.submitted++;
    this.counts.rejected++;
    job.state = 'rejected';
    job.endNanos = now;
    job.error = reason;
    job.errorCode = 'QUEUE_FULL';
    if (job.tenant !== null) job.tenant.rejectedJobs++;
    this.emitEnd(job, undefined, limit);
  }

  /** Ends `job` with the reason it holds (`job.error`, `job.errorCode`), and its one split's result. */
  end(
    job: ExecJob,
    state: 'succeeded' | 'failed' | 'cancelled',
    now: number,
    result?: unknown,
  ): void {
    checkJobTransition(job.id, job.state, state);
    job.state = state;
    job.endNanos = now;
    this.liveById.delete(job.id);
    this.counts.live--;
    this.counts[state]++;
    this.emitEnd(job, result);
    if (this.counts.live === 0 && this.waiters.length > 0) {
      const w = this.waiters;
      this.waiters = [];
      for (const fn of w) fn();
    }
  }

  splitEnded(
    split: ExecSplit,
    state: SplitState,
    now: number,
    result?: unknown,
    stillRunning = false,
  ): void {
    const name = SPLIT_STATE_NAMES[state] as SplitEnd['state'];
    if (name === 'succeeded') this.counts.splitsSucceeded++;
    else if (name === 'failed') this.counts.splitsFailed++;
    else this.counts.splitsCancelled++;
    const job = split.job;
    job.doneSplits++;
    job.waitNanos += split.waitNanos;
    if (this.splitEnd.length === 0) return;
    const e: SplitEnd = {
      splitId: split.id,
      jobId: job.id,
      taskId: split.task.id,
      class: job.cls,
      basePriority: split.basePriority,
      state: name,
      waitNanos: split.waitNanos,
      scheduledNanos: split.scheduledNanos,
      endNanos: now,
    };
    if (name === 'cancelled') e.errorCode = 'CANCELLED';
    else if (name === 'failed' && split.errorCode !== undefined) e.errorCode = split.errorCode;
    if (result !== undefined) e.result = result;
    if (name === 'failed' && job.splitError !== undefined) e.error = job.splitError;
    if (stillRunning) e.stillRunning = true;
    for (const fn of this.splitEnd) fn(e);
  }

  /** A split that ended while its quantum ran (`splitEnded`, `stillRunning`) is off its worker. */
  offWorker(split: ExecSplit, now: number): void {
    if (this.splitOffWorker.length === 0) return;
    const e: SplitOffWorker = {
      splitId: split.id,
      jobId: split.job.id,
      scheduledNanos: split.scheduledNanos,
      endNanos: now,
    };
    for (const fn of this.splitOffWorker) fn(e);
  }

  taskEnded(task: ExecTask, state: TaskEnd['state'], now: number): void {
    if (this.taskEnd.length === 0) return;
    const e: TaskEnd = {
      taskId: task.id,
      jobId: task.job.id,
      index: task.index,
      state,
      endNanos: now,
    };
    for (const fn of this.taskEnd) fn(e);
  }

  drained(): Promise<void> {
    if (this.counts.live === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Live jobs first (oldest first), then ended ones: those that failed, were cancelled or were
   * rejected (newest first), then those that succeeded (newest first). A quarter of `limit` is
   * kept for ended jobs when there are any: under overload the live jobs alone would fill every
   * row, and under load succeeded jobs end many a second, so a job that failed or was cancelled
   * would vanish from view with its reason.
   */
  rows(limit: number): JobRow[] {
    const ended = this.troubled.size + this.succeeded.size;
    const liveRows = Math.min(this.liveById.size, limit - Math.min(ended, limit >> 2));
    const out: JobRow[] = [];
    for (const job of this.liveById.values()) {
      if (out.length >= liveRows) break;
      out.push(row(job, this.liveState(job)));
    }
    this.troubled.newest(limit - out.length, out);
    this.succeeded.newest(limit - out.length, out);
    return out;
  }

  /**
   * A quantum of an ended job's split ended (it ran on, cancelling, after the job was cancelled):
   * its row, made at the end, takes the time that quantum added (Trino charges the whole quantum).
   */
  chargedAfterEnd(job: ExecJob): void {
    const r = this.troubled.find((x) => x.id === job.id);
    if (r !== undefined) r.scheduledNanos = job.scheduledNanos;
  }

  /** A live job's row, or an ended one's while the history still holds it. */
  row(id: number): JobRow | undefined {
    const job = this.liveById.get(id);
    if (job) return row(job, this.liveState(job));
    const ended = (r: JobRow) => r.id === id;
    return this.troubled.find(ended) ?? this.succeeded.find(ended);
  }

  /**
   * `row(id)` for a job's detail: its failure reason whole (up to `JOB_ERROR_TEXT_MAX`), where
   * the row shows only its first `JOB_ROW_TEXT_MAX` characters. A copy: the ring's row stays short.
   */
  detailRow(id: number): JobRow | undefined {
    const r = this.row(id);
    const whole = this.wholeErrors.get(id);
    return r === undefined || whole === undefined ? r : { ...r, error: whole };
  }

  /**
   * Jobs matching `q`: live ones (oldest first), then the ended ones the history holds (newest
   * first), at most `limit` rows; every match is counted. Scans, keeps only `limit` rows.
   */
  search(q: JobQuery, limit: number): FindJobsResult {
    const jobs: JobRow[] = [];
    let matched = 0;
    for (const job of this.liveById.values()) {
      const state = this.liveState(job);
      const fields = { id: job.id, state, class: job.cls, tenant: job.tenant?.name };
      if (!matchesJob(q, fields)) continue;
      if (matched++ < limit) jobs.push(row(job, state));
    }
    const ended = [...this.troubled.toArray(), ...this.succeeded.toArray()];
    ended.sort((a, b) => (b.endNanos ?? 0) - (a.endNanos ?? 0) || b.id - a.id);
    for (const r of ended) {
      if (!matchesJob(q, r)) continue;
      if (matched++ < limit) jobs.push(r);
    }
    return { jobs, matched, more: matched - jobs.length, endedKept: ended.length };
  }

  /**
   * An ended job that did not succeed into `troubled`, its whole reason beside it when the row
   * cuts it (bounded: one per row the ring holds).
   */
  private keepTroubled(job: ExecJob, result: unknown): void {
    const ring = this.troubled;
    if (ring.capacity > 0 && ring.size === ring.capacity) {
      const gone = ring.oldest();
      if (gone !== undefined) this.wholeErrors.delete(gone.id);
    }
    const reason = reasonOf(job);
    const r = endedRow(job, result, reason);
    ring.push(r);
    if (ring.capacity > 0 && reason !== undefined && reason !== r.error) {
      this.wholeErrors.set(job.id, clip(reason, JOB_ERROR_TEXT_MAX));
    }
  }

  /** `result` goes to the listeners and, as a short text, to the job's row; nothing keeps it. */
  private emitEnd(job: ExecJob, result?: unknown, rejectedBy?: RejectingLimit): void {
    if (job.tenant !== null) this.tenants.release(job.tenant, job.endNanos);
    if (job.state === 'succeeded') this.succeeded.push(endedRow(job, result));
    else this.keepTroubled(job, result);
    const owner = job.owner;
    job.owner = undefined;
    if (this.jobEnd.length === 0) return;
    const e: JobEnd = {
      jobId: job.id,
      class: job.cls,
      state: job.state as JobEnd['state'],
      basePriority: job.basePriority,
      submitNanos: job.submitNanos,
      endNanos: job.endNanos,
      scheduledNanos: job.scheduledNanos,
      waitNanos: job.waitNanos,
      splits: job.totalSplits,
    };
    if (job.tenant !== null) e.tenant = job.tenant.name;
    if (job.error !== undefined) e.error = job.error;
    if (job.errorCode !== undefined) e.errorCode = job.errorCode;
    if (result !== undefined) e.result = result;
    if (owner !== undefined) e.owner = owner;
    if (rejectedBy !== undefined) e.rejectedBy = rejectedBy;
    if (job.failedSplitReason !== undefined) e.splitError = job.failedSplitReason;
    if (job.errorCause !== undefined) e.cause = job.errorCause;
    for (const fn of this.jobEnd) fn(e);
  }
}

/**
 * Why `job` ended, for people: `job.error`, but for a job of one split without `split N: ` before
 * its split's reason (which split failed says nothing there; the library's rejection leaves it
 * out too).
 */
function reasonOf(job: ExecJob): string | undefined {
  const own = job.failedSplitReason;
  return own !== undefined && job.totalSplits === 1 ? own : job.error;
}

/** An ended job's row: its state, plus why it ended and what it returned, as short texts. */
function endedRow(job: ExecJob, result: unknown, reason = reasonOf(job)): JobRow {
  const r = row(job, job.state);
  if (reason !== undefined) r.error = clip(reason);
  if (job.errorCode !== undefined) r.errorCode = job.errorCode;
  const code = job.errorCause?.code;
  if (typeof code === 'number') r.causeCode = code;
  else if (code !== undefined) r.causeCode = clip(code, CAUSE_CODE_MAX);
  if (result !== undefined) r.result = resultText(result);
  return r;
}

function row(job: ExecJob, state: JobRow['state']): JobRow {
  const r: JobRow = {
    id: job.id,
    class: job.cls,
    state,
    basePriority: job.basePriority,
    splits: job.totalSplits,
    splitsDone: job.doneSplits,
    scheduledNanos: job.scheduledNanos,
    submitNanos: job.submitNanos,
    endNanos: job.endNanos < 0 ? null : job.endNanos,
  };
  if (job.tenant !== null) r.tenant = job.tenant.name;
  return r;
}

/** Jain's index over live jobs and how many it counted (`jainSteps`). */
export interface Jain {
  jain: number;
  jobs: number;
}

/**
 * Jain's index over live jobs of their rate of service (scheduled time / age): 1 when every live
 * job has been served at the same rate, 1/n when one job got everything. The quanta running now
 * count as far as they have run (a run-to-completion task counts while it runs). In steps of
 * `budget` (a frame's pass, population-pass.ts): `read` gives the time and the running quanta,
 * read again after each step; a job that ended since the pass began is passed over.
 */
export function* jainSteps(
  jobs: Iterable<ExecJob>,
  read: () => RunningNow,
  budget: WorkBudget,
): Steps<Jain> {
  let sum = 0;
  let sumSq = 0;
  let n = 0;
  let now = read();
  let running = runningByJob(now);
  for (const job of jobs) {
    if (budget.spend()) {
      yield;
      now = read();
      running = runningByJob(now);
    }
    const age = now.now - job.submitNanos;
    if (job.state !== 'running' || age <= 0) continue;
    const x = (job.scheduledNanos + (running.get(job) ?? 0)) / age;
    sum += x;
    sumSq += x * x;
    n++;
  }
  return { jain: n === 0 || sumSq === 0 ? 1 : (sum * sum) / (n * sumSq), jobs: n };
}
