/**
 * One slot of a worker node: the quanta its coordinator sent there, run one after another on the
 * slot's lane (a worker thread of the threads backend, lane.ts). The lane runs one and holds one
 * more queued behind it, posted with a ticket, so its thread starts that one the moment the
 * running one ends — without waiting for this thread (busy with Redis and other slots) to notice.
 * Jobs beyond those two wait here in the order taken. Every job taken is answered exactly once
 * (`resolve`), whatever happens to the lane.
 */
import type { Dispatch } from '../backend.ts';
import { CONTROL, NO_SPLIT } from '../threads/control.ts';
import type { Lane } from '../threads/lane.ts';
import type { QuantumReport } from '../threads/protocol.ts';
import type { QuantumJob, QuantumResult } from './protocol.ts';

export interface SlotJob {
  readonly job: QuantumJob;
  readonly resolve: (result: QuantumResult) => void;
}

export interface SlotHost {
  /** The slot's lane now (a replaced lane keeps the id), or undefined while none is spawned. */
  lane(): Lane | undefined;
  /** A dead lane is emptied by the caller first; a fresh one takes the id. */
  replace(lane: Lane): void;
  now(): number;
  /** Takes a cancel or cut that arrived before the job did. */
  earlyCancel(splitId: number): boolean;
  earlyCut(splitId: number): number | undefined;
  /** Names the node in a lost quantum's error. */
  readonly nodeName: string;
}

interface OnLane extends SlotJob {
  readonly dispatch: Dispatch;
}

export class SlotRunner {
  private readonly waiting: SlotJob[] = [];
  private running: OnLane | null = null;
  private queued: OnLane | null = null;

  constructor(
    readonly slot: number,
    private readonly host: SlotHost,
  ) {}

  /** Whether `splitId`'s quantum is here (running, queued on the lane, or waiting). */
  holds(splitId: number): boolean {
    return (
      this.running?.job.splitId === splitId ||
      this.queued?.job.splitId === splitId ||
      this.waiting.some((w) => w.job.splitId === splitId)
    );
  }

  submit(job: SlotJob): void {
    this.waiting.push(job);
    this.fill();
  }

  /** Puts waiting jobs on the lane while it has room: one running, one queued. */
  fill(): void {
    const lane = this.host.lane();
    if (lane === undefined) return; // respawning: its `ready` calls again
    while (this.waiting.length > 0 && (lane.running === null || lane.queued === null)) {
      const next = this.waiting.shift()!;
      const { job } = next;
      if (this.host.earlyCancel(job.splitId)) {
        next.resolve(cancelledResult(job.splitId, this.slot));
        continue;
      }
      const dispatch: Dispatch = {
        splitId: job.splitId,
        workerId: lane.id,
        quantumNanos: Math.min(job.quantumNanos, this.host.earlyCut(job.splitId) ?? Infinity),
        work: job.work,
        doneNanos: job.doneNanos,
      };
      const placed: OnLane = { ...next, dispatch };
      if (lane.running === null) this.start(lane, placed);
      else this.enqueue(lane, placed);
    }
  }

  private start(lane: Lane, placed: OnLane): void {
    lane.run(placed.dispatch, this.host.now());
    Atomics.store(lane.control, CONTROL.CANCEL, NO_SPLIT);
    Atomics.store(lane.control, CONTROL.CUT_SPLIT, NO_SPLIT);
    this.running = placed;
    try {
      lane.host.post({ type: 'run', dispatch: placed.dispatch, input: placed.job.input });
    } catch (error) {
      this.running = null;
      lane.advance(this.host.now());
      placed.resolve(unclonable(placed.job.splitId, this.slot, error));
    }
  }

  private enqueue(lane: Lane, placed: OnLane): void {
    const ticket = lane.queue(placed.dispatch);
    this.queued = placed;
    try {
      lane.host.post({ type: 'run', dispatch: placed.dispatch, input: placed.job.input, ticket });
    } catch (error) {
      lane.revoke();
      this.queued = null;
      placed.resolve(unclonable(placed.job.splitId, this.slot, error));
    }
  }

  /** The lane reported its running quantum's end: the queued one runs now; more go on. */
  ended(lane: Lane, report: QuantumReport): void {
    const done = this.running;
    if (done === null || lane.running?.splitId !== report.splitId) return;
    lane.advance(report.endNanos);
    this.running = this.queued;
    this.queued = null;
    done.resolve(measured(report, this.slot));
    this.fill();
  }

  /**
   * The lane's thread died: what it ran ends `failed` with `WORKER_LOST` (its queued quantum too
   * when it had started it); a queued one it never started runs on the fresh lane instead.
   */
  lost(lane: Lane, reason: string): void {
    const { queuedStarted } = lane.abandon();
    this.host.replace(lane);
    const why = `worker lost: node ${this.host.nodeName} thread ${this.slot}: ${reason}`;
    const dead = queuedStarted ? [this.running, this.queued] : [this.running];
    if (!queuedStarted && this.queued !== null) this.waiting.unshift(this.queued);
    this.running = null;
    this.queued = null;
    for (const d of dead) if (d !== null) d.resolve(lostResult(d.job.splitId, this.slot, why));
    this.fill();
  }

  /** Cancels `splitId` here: a queued or waiting quantum ends at once, a running one stops. */
  cancel(splitId: number): void {
    const lane = this.host.lane();
    const waitingAt = this.waiting.findIndex((w) => w.job.splitId === splitId);
    if (waitingAt >= 0) {
      this.waiting.splice(waitingAt, 1)[0]!.resolve(cancelledResult(splitId, this.slot));
    } else if (this.queued?.job.splitId === splitId && lane?.revoke() === true) {
      const queued = this.queued;
      this.queued = null;
      queued.resolve(cancelledResult(splitId, this.slot));
      this.fill();
    } else if (lane !== undefined) {
      Atomics.store(lane.control, CONTROL.CANCEL, splitId);
    }
  }

  /** Cuts the quanta here to at most `nanos` from their start (lane.ts `cut`). */
  cut(nanos: number): void {
    this.host.lane()?.cut(nanos);
  }
}

export function failedResult(
  splitId: number,
  lane: number,
  error: string,
  errorCode: NonNullable<QuantumResult['errorCode']>,
): QuantumResult {
  return { splitId, ranNanos: 0, workNanos: 0, outcome: 'failed', error, errorCode, lane };
}

function lostResult(splitId: number, lane: number, why: string): QuantumResult {
  return failedResult(splitId, lane, why, 'WORKER_LOST');
}

function unclonable(splitId: number, lane: number, error: unknown): QuantumResult {
  return failedResult(splitId, lane, `unclonable input: ${String(error)}`, 'KERNEL_FAILED');
}

function cancelledResult(splitId: number, lane: number): QuantumResult {
  return { splitId, ranNanos: 0, workNanos: 0, outcome: 'cancelled', lane };
}

function measured(report: QuantumReport, lane: number): QuantumResult {
  const { state, startNanos, endNanos, ...rest } = report;
  return {
    ...rest,
    ranNanos: Math.max(0, endNanos - startNanos),
    lane,
    ...('state' in report && report.outcome === 'yielded' ? { state: { value: state } } : {}),
  };
}
