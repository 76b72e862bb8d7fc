/**
 * The executor a live session runs: the plain `Executor` plus a tap on each wait of a split for a
 * worker, so live frames count waits the way a headless report does (report/wait-recorder.ts):
 * one sample per wait — before the first quantum (admission FIFO included), after each requeue,
 * after waking from blocked or a retry backoff — taken at dispatch, and the waits still in
 * progress read at frame time.
 *
 * Why a subclass: the public surface reports a split's waits only summed, at its end
 * (`SplitEnd.waitNanos`), and no public call lists the splits waiting now. This overrides the
 * same protected `dispatch` hook `WaitRecordingExecutor` does and reads the same split table; a
 * public `onDispatch`/`waitsInProgress` on `Executor` would let both drop their subclass.
 */
import type { Backend } from '../../runtime/backend.ts';
import { Executor, type ExecutorOptions } from '../../runtime/executor/index.ts';
import { SplitState } from '../../runtime/executor/lifecycle.ts';
import type { ExecSplit } from '../../runtime/executor/records.ts';
import type { OpenSample } from './stats.ts';

type WaitListener = (cls: string, priority: number, nanos: number) => void;

export class LiveExecutor extends Executor {
  private waitListener: WaitListener | null = null;

  constructor(backend: Backend, config: unknown, options: ExecutorOptions = {}) {
    super(backend, config, options);
  }

  /** Called once per dispatch with the wait that just ended (ns). One listener: the session. */
  onWait(fn: WaitListener): void {
    this.waitListener = fn;
  }

  protected override dispatch(split: ExecSplit, worker: number, now: number): void {
    this.waitListener?.(split.job.cls, split.basePriority, now - split.enqueuedAt);
    super.dispatch(split, worker, now);
  }

  /** Every wait in progress now: splits in an admission FIFO or the ready queue. */
  waitsInProgress(): OpenSample[] {
    const now = this.backend.now();
    const out: OpenSample[] = [];
    for (const s of this.splits.values()) {
      if (s.state !== SplitState.queued && s.state !== SplitState.waiting) continue;
      out.push({ cls: s.job.cls, priority: s.basePriority, nanos: now - s.enqueuedAt });
    }
    return out;
  }
}
