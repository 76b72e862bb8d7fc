/**
 * One worker of a worker node (one of its threads): the quanta its coordinator sent there, run
 * one after another on the thread (a pool worker of the threads backend, pool-worker.ts). The
 * thread runs one and holds one more queued behind it, posted with a ticket, so it starts that one
 * the moment the running one ends — without waiting for the node's main thread (busy with Redis
 * and other workers) to notice. Jobs beyond those two wait here in the order taken. Every job
 * taken is answered exactly once (`resolve`), whatever happens to the thread.
 */
import type { Dispatch } from '../backend.ts';
import { CONTROL, NO_SPLIT } from '../threads/control.ts';
import type { PoolWorker } from '../threads/pool-worker.ts';
import type { QuantumReport } from '../threads/protocol.ts';
import { sendCheck } from './json-value.ts';
import type { QuantumJob, QuantumResult } from './protocol.ts';

export interface RunnerJob {
  /** Its BullMQ job id: one quantum's (a cancel names it). */
  readonly jobId: string;
  readonly job: QuantumJob;
  readonly resolve: (result: QuantumResult) => void;
}

export interface RunnerHost {
  /** Its pool worker now (a replaced worker keeps the id), or undefined while none is spawned. */
  worker(): PoolWorker | undefined;
  /** A dead worker is emptied by the caller first; a fresh one takes the id. */
  replace(worker: PoolWorker): void;
  now(): number;
  /** Takes a cancel that arrived before the job did (for that quantum), or a cut (its split). */
  earlyCancel(entry: RunnerJob): boolean;
  earlyCut(job: QuantumJob): number | undefined;
  /** Names the node in a lost quantum's error. */
  readonly nodeName: string;
}

interface OnWorker extends RunnerJob {
  readonly dispatch: Dispatch;
  /** How long the worker sat idle before this started (`QuantumResult.idleBeforeNanos`). */
  idleBefore?: number;
}

export class WorkerRunner {
  private readonly waiting: RunnerJob[] = [];
  private running: OnWorker | null = null;
  private queued: OnWorker | null = null;
  /** When the worker last ran out of quanta (the node's clock), or −1 while busy or never run. */
  private idleSince = -1;
  /** The last id `nextLocalId` handed out. */
  private localId = 0;

  constructor(
    readonly index: number,
    private readonly host: RunnerHost,
  ) {}

  /** Whether a quantum of `coordinator`'s split `splitId` is here (running, queued or waiting). */
  holds(coordinator: string, splitId: number): boolean {
    const of = (j: RunnerJob | null) => j !== null && isSplit(j.job, coordinator, splitId);
    return of(this.running) || of(this.queued) || this.waiting.some(of);
  }

  submit(job: RunnerJob): void {
    this.waiting.push(job);
    this.fill();
  }

  /**
   * A fresh id for a quantum on the thread, in place of its split id. Coordinators number their
   * splits each on their own, so two may send the same split id to one thread, and the thread's
   * cancel word names the quantum to stop by that id: a cancel of one coordinator's running quantum
   * could stop the other's, queued behind it, which the thread starts on its own the moment the
   * first ends. An id used once is never that of a later quantum (it wraps after 2³¹ − 1).
   */
  private nextLocalId(): number {
    this.localId = this.localId >= 0x7fff_fffe ? 1 : this.localId + 1;
    return this.localId;
  }

  /** The split (`coordinator:split`) of the quantum the thread knows by `localId`, if it is here. */
  splitOfLocal(localId: number): string | undefined {
    for (const j of [this.running, this.queued]) {
      if (j !== null && j.dispatch.splitId === localId) return `${j.job.replyTo}:${j.job.splitId}`;
    }
    return undefined;
  }

  /** Puts waiting jobs on the worker while it has room: one running, one queued. */
  fill(): void {
    const worker = this.host.worker();
    if (worker === undefined) return; // respawning: its `ready` calls again
    while (this.waiting.length > 0 && (worker.running === null || worker.queued === null)) {
      const next = this.waiting.shift()!;
      const { job } = next;
      if (this.host.earlyCancel(next)) {
        next.resolve(cancelledResult(job.splitId, this.index));
        continue;
      }
      // The thread knows each quantum by an id of its own (`nextLocalId`), never the split's.
      const dispatch: Dispatch = {
        splitId: this.nextLocalId(),
        workerId: worker.id,
        quantumNanos: Math.min(job.quantumNanos, this.host.earlyCut(job) ?? Infinity),
        work: job.work,
        doneNanos: job.doneNanos,
      };
      const placed: OnWorker = { ...next, dispatch };
      if (worker.running === null) this.start(worker, placed);
      else this.enqueue(worker, placed);
    }
  }

  private start(worker: PoolWorker, placed: OnWorker): void {
    const now = this.host.now();
    if (this.idleSince >= 0) placed.idleBefore = now - this.idleSince;
    this.idleSince = -1;
    worker.run(placed.dispatch, now);
    Atomics.store(worker.control, CONTROL.CANCEL, NO_SPLIT);
    Atomics.store(worker.control, CONTROL.CUT_SPLIT, NO_SPLIT);
    this.running = placed;
    try {
      worker.host.post({ type: 'run', dispatch: placed.dispatch, input: placed.job.input });
    } catch (error) {
      this.running = null;
      worker.advance(this.host.now());
      placed.resolve(unclonable(placed.job.splitId, this.index, error));
    }
  }

  private enqueue(worker: PoolWorker, placed: OnWorker): void {
    const ticket = worker.queue(placed.dispatch);
    this.queued = placed;
    try {
      worker.host.post({ type: 'run', dispatch: placed.dispatch, input: placed.job.input, ticket });
    } catch (error) {
      worker.revoke();
      this.queued = null;
      placed.resolve(unclonable(placed.job.splitId, this.index, error));
    }
  }

  /** The worker reported its running quantum's end: the queued one runs now; more go on. */
  ended(worker: PoolWorker, report: QuantumReport): void {
    const done = this.running;
    if (done === null || worker.running?.splitId !== report.splitId) return;
    worker.advance(report.endNanos);
    this.running = this.queued;
    this.queued = null;
    // Stamped by the worker thread as it ended, not when this (busier) thread heard of it.
    if (this.running === null) this.idleSince = report.endNanos;
    done.resolve(measured(report, done.job.splitId, this.index, done.idleBefore));
    this.fill();
  }

  /**
   * The worker's thread died: what it ran ends `failed` with `WORKER_LOST` (its queued quantum too
   * when it had started it); a queued one it never started runs on the fresh worker instead.
   */
  lost(worker: PoolWorker, reason: string): void {
    const { queuedStarted } = worker.abandon();
    this.host.replace(worker);
    this.idleSince = -1;
    const why = `worker lost: node ${this.host.nodeName} thread ${this.index}: ${reason}`;
    const dead = queuedStarted ? [this.running, this.queued] : [this.running];
    if (!queuedStarted && this.queued !== null) this.waiting.unshift(this.queued);
    this.running = null;
    this.queued = null;
    for (const d of dead) if (d !== null) d.resolve(lostResult(d.job.splitId, this.index, why));
    this.fill();
  }

  /** Whether quantum `jobId` is here (running, queued or waiting). */
  holdsQuantum(jobId: string): boolean {
    const of = (j: RunnerJob | null) => j !== null && j.jobId === jobId;
    return of(this.running) || of(this.queued) || this.waiting.some(of);
  }

  /** Stops quantum `jobId` (`holdsQuantum`): taken back before it starts, or cancelled running. */
  cancel(jobId: string): void {
    const worker = this.host.worker();
    const waitingAt = this.waiting.findIndex((w) => w.jobId === jobId);
    if (waitingAt >= 0) {
      const [entry] = this.waiting.splice(waitingAt, 1);
      entry!.resolve(cancelledResult(entry!.job.splitId, this.index));
    } else if (this.queued?.jobId === jobId && worker?.revoke() === true) {
      const queued = this.queued;
      this.queued = null;
      queued.resolve(cancelledResult(queued.job.splitId, this.index));
      this.fill();
    } else if (this.running?.jobId === jobId && worker !== undefined) {
      Atomics.store(worker.control, CONTROL.CANCEL, this.running.dispatch.splitId);
    }
  }

  /**
   * Cuts `coordinator`'s split `splitId` to at most `nanos` from its start, when it is on the
   * thread (running, or queued there); false when it is not (a job still waiting takes the cut
   * as it is placed: the node's early cut). The thread's other quanta — another coordinator's
   * among them — keep theirs: a cut of the whole thread shortened them.
   */
  cut(coordinator: string, splitId: number, nanos: number): boolean {
    const worker = this.host.worker();
    const here = (j: OnWorker | null) => j !== null && isSplit(j.job, coordinator, splitId);
    const on = here(this.running) ? this.running : here(this.queued) ? this.queued : null;
    if (worker === undefined || on === null) return false;
    worker.cut(nanos, on.dispatch);
    return true;
  }
}

function isSplit(job: QuantumJob, coordinator: string, splitId: number): boolean {
  return job.splitId === splitId && job.replyTo === coordinator;
}

export function failedResult(
  splitId: number,
  worker: number,
  error: string,
  errorCode: NonNullable<QuantumResult['errorCode']>,
): QuantumResult {
  return { splitId, ranNanos: 0, workNanos: 0, outcome: 'failed', error, errorCode, worker };
}

function lostResult(splitId: number, worker: number, why: string): QuantumResult {
  return failedResult(splitId, worker, why, 'WORKER_LOST');
}

function unclonable(splitId: number, worker: number, error: unknown): QuantumResult {
  return failedResult(splitId, worker, `unclonable input: ${String(error)}`, 'KERNEL_FAILED');
}

function cancelledResult(splitId: number, worker: number): QuantumResult {
  return { splitId, ranNanos: 0, workNanos: 0, outcome: 'cancelled', worker };
}

/** `report` of the quantum the thread knew by a local id, as the result for split `splitId`. */
function measured(
  report: QuantumReport,
  splitId: number,
  worker: number,
  idleBefore?: number,
): QuantumResult {
  const { state, result, startNanos, endNanos, ...rest } = report;
  const ran = {
    ...rest,
    splitId,
    ranNanos: Math.max(0, endNanos - startNanos),
    worker,
    ...(idleBefore === undefined ? {} : { idleBeforeNanos: idleBefore }),
  };
  const yielded = 'state' in report && report.outcome === 'yielded';
  const { error, zeros } = yielded
    ? sendCheck(state, 'state', 'yielded state')
    : sendCheck(result, 'result', 'result');
  if (error !== null) {
    // It ran (and is charged), but what it handed back cannot reach its coordinator as itself.
    return { ...ran, outcome: 'failed', error, errorCode: 'KERNEL_FAILED' };
  }
  const sent = zeros === undefined ? ran : { ...ran, zeros };
  if (yielded) return { ...sent, state: { value: state } };
  return 'result' in report ? { ...sent, result } : sent;
}
