/**
 * A backend seen through a tap: the central graph executor drives it as usual, and the live
 * session learns of every dispatch and quantum end as it happens (the executor itself only
 * reports its spans when the run ends), so frames can show the graph while it runs.
 *
 * The optional pipelining members (`queueableWorkers`, `enqueue`, `revoke`) exist here exactly
 * when the inner backend has them, so a live graph on threads gets the same per-worker lookahead
 * as a headless one. A queued dispatch counts as started when it is queued — the Backend contract
 * says it is running from the caller's view from then on.
 */
import type { Backend, BackendEvents, Dispatch, QuantumEnd } from '../../runtime/backend.ts';

export interface BackendTap {
  started(dispatch: Dispatch): void;
  ended(end: QuantumEnd): void;
}

export class TappedBackend implements Backend {
  readonly queueableWorkers?: () => number[];
  readonly enqueue?: (dispatch: Dispatch) => void;
  readonly revoke?: (splitId: number) => boolean;

  constructor(
    readonly inner: Backend,
    private readonly tap: BackendTap,
  ) {
    const { queueableWorkers, enqueue, revoke } = inner;
    if (queueableWorkers === undefined || enqueue === undefined || revoke === undefined) return;
    this.queueableWorkers = () => queueableWorkers.call(inner);
    this.enqueue = (dispatch) => {
      tap.started(dispatch);
      enqueue.call(inner, dispatch);
    };
    this.revoke = (splitId) => revoke.call(inner, splitId);
  }

  get kind(): Backend['kind'] {
    return this.inner.kind;
  }

  get workerCount(): number {
    return this.inner.workerCount;
  }

  now(): number {
    return this.inner.now();
  }

  setWorkerCount(count: number): void {
    this.inner.setWorkerCount(count);
  }

  idleWorkers(): number[] {
    return this.inner.idleWorkers();
  }

  start(dispatch: Dispatch): void {
    this.tap.started(dispatch);
    this.inner.start(dispatch);
  }

  cancel(splitId: number): void {
    this.inner.cancel(splitId);
  }

  setTimer(atNanos: number, fn: () => void): () => void {
    return this.inner.setTimer(atNanos, fn);
  }

  setListener(events: BackendEvents): void {
    // The tap sees the end first: its node counts then match what the executor does next.
    this.inner.setListener({
      ...events,
      quantumEnd: (end) => {
        this.tap.ended(end);
        events.quantumEnd(end);
      },
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
