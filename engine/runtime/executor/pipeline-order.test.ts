// A backend that runs a worker's queued dispatches out of the order they were sent (a cluster node
// takes its jobs from BullMQ with some concurrency): a quantum that ran is a quantum, counted and
// charged once, whichever end comes first; only an end the backend marks `unstarted` is one that
// never ran.
import { describe, expect, it } from 'vitest';
import type { Backend, BackendEvents, Dispatch, QuantumEnd } from '../backend.ts';
import { Executor } from './executor.ts';
import { intermediates, oneTaskJob, spin } from './testing.ts';

const MS = 1e6;

/** One worker whose ends the test sends, in the order it likes. */
class HandBackend implements Backend {
  readonly kind = 'threads' as const;
  workerCount = 1;
  busy = false;
  readonly started: Dispatch[] = [];
  readonly queued: Dispatch[] = [];
  private listener: BackendEvents | null = null;
  private clock = 0;

  now(): number {
    return this.clock;
  }
  setWorkerCount(count: number): void {
    this.workerCount = count;
  }
  idleWorkers(): number[] {
    return this.busy ? [] : [0];
  }
  start(dispatch: Dispatch): void {
    this.busy = true;
    this.started.push(dispatch);
  }
  queueableWorkers(): number[] {
    return this.busy ? [0] : [];
  }
  enqueue(dispatch: Dispatch): void {
    this.queued.push(dispatch);
  }
  /** A queued dispatch is never taken back here (it may have run already). */
  revoke(): boolean {
    return false;
  }
  cancel(): void {}
  setTimer(): () => void {
    return () => {};
  }
  setListener(events: BackendEvents): void {
    this.listener = events;
  }
  async close(): Promise<void> {}

  /** `dispatch` ran from `fromMs` to `toMs` (`unstarted`: it never ran, handed back). */
  end(
    dispatch: Dispatch,
    fromMs: number,
    toMs: number,
    outcome: QuantumEnd['outcome'],
    unstarted = false,
  ): void {
    this.clock = toMs * MS;
    const ran = (toMs - fromMs) * MS;
    const end: QuantumEnd = {
      splitId: dispatch.splitId,
      workerId: dispatch.workerId,
      startNanos: fromMs * MS,
      endNanos: toMs * MS,
      ranNanos: ran,
      workNanos: ran,
      outcome,
      ...(unstarted ? { unstarted } : {}),
    };
    this.listener!.quantumEnd(end);
  }
}

function rig(): { backend: HandBackend; ex: Executor } {
  const backend = new HandBackend();
  const ex = new Executor(backend, { policy: 'fifo', quantumMs: 1 }, { pipeline: true });
  return { backend, ex };
}

describe('a worker that runs its queued dispatches out of order', () => {
  it('a finished quantum that ran ahead of the one before it is counted, charged and drawn', () => {
    const { backend, ex } = rig();
    const a = ex.submitJob(oneTaskJob('c', intermediates(1, spin(1))));
    const b = ex.submitJob(oneTaskJob('c', intermediates(1, spin(1))));
    expect(backend.started.map((d) => d.splitId)).toHaveLength(1);
    expect(backend.queued).toHaveLength(1);
    // The node ran the queued one first, then the one the executor had started.
    backend.end(backend.queued[0]!, 0, 1, 'finished');
    backend.busy = false;
    backend.end(backend.started[0]!, 1, 2, 'finished');
    expect([ex.jobState(a), ex.jobState(b)]).toEqual(['succeeded', 'succeeded']);
    // Taken for a dispatch handed back unstarted, it ended with no quantum, no charge, no span.
    expect(ex.counters.quanta).toBe(2);
    expect(ex.counters.busyNanos).toBe(2 * MS);
    expect(ex.spans.read(0).columns.count).toBe(2);
  });

  it('a yielded quantum that ran ahead keeps its work: the next one goes on from there', () => {
    const { backend, ex } = rig();
    ex.submitJob(oneTaskJob('c', intermediates(1, spin(1))));
    ex.submitJob(oneTaskJob('c', intermediates(1, spin(2))));
    const behind = backend.queued[0]!;
    backend.end(behind, 0, 1, 'yielded');
    backend.busy = false;
    backend.end(backend.started[0]!, 1, 2, 'finished');
    // Its next quantum starts 1 ms into its work; from 0 it ran that millisecond twice.
    const again = [...backend.started, ...backend.queued].filter(
      (d) => d.splitId === behind.splitId && d !== behind,
    );
    expect(again.map((d) => d.doneNanos)).toEqual([1 * MS]);
    expect(ex.counters.quanta).toBe(2);
  });

  it('an end marked unstarted is a dispatch handed back: no quantum, offered again', () => {
    const { backend, ex } = rig();
    ex.submitJob(oneTaskJob('c', intermediates(1, spin(1))));
    const b = ex.submitJob(oneTaskJob('c', intermediates(1, spin(1))));
    const behind = backend.queued[0]!;
    backend.end(behind, 0, 0, 'yielded', true);
    expect(ex.counters.quanta).toBe(0);
    expect(ex.jobState(b)).toBe('running');
    // Offered again, and queued again behind the quantum still running, from where it was.
    const again = backend.queued.filter((d) => d.splitId === behind.splitId && d !== behind);
    expect(again.map((d) => d.doneNanos)).toEqual([0]);
  });
});
