/**
 * A backend seen through a tap: the central graph executor drives it as usual, and the live
 * session learns of every dispatch and quantum end as it happens (the executor itself only
 * reports its spans when the run ends), so frames can show the graph while it runs.
 */
import type { Backend, BackendEvents, Dispatch, QuantumEnd } from '../../runtime/backend.ts';

export interface BackendTap {
  started(dispatch: Dispatch): void;
  ended(end: QuantumEnd): void;
}

export class TappedBackend implements Backend {
  constructor(
    readonly inner: Backend,
    private readonly tap: BackendTap,
  ) {}

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
