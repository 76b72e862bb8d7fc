/**
 * The threads backend's workers and the lifecycle of their threads. Worker ids are stable: a
 * replaced worker keeps its id, a grown pool takes the lowest free ids, a shrunk pool retires the
 * highest.
 *
 * Worker lifecycle (per id): `idle → busy → idle`; a busy worker whose id is beyond the target
 * count retires when its quantum ends; a worker that dies is replaced at once (after a backoff,
 * boot-backoff.ts, when it died before it was ready) and the backend fails its in-flight split.
 * A worker still starting up counts as idle: its first dispatch waits in the port's queue and is
 * stamped when it really starts.
 */
import type { ResourceLimits } from 'node:worker_threads';
import { BootBackoff } from './boot-backoff.ts';
import { spawnWorker, type PoolWorker } from './pool-worker.ts';
import type { QuantumReport, StrayError } from './protocol.ts';

/** What a worker tells the backend: a quantum's end, or that it died. */
export interface PoolEvents {
  /** The worker has started (a dispatch waiting in its port starts now). */
  ready(worker: PoolWorker): void;
  end(worker: PoolWorker, report: QuantumReport): void;
  stray(worker: PoolWorker, error: StrayError): void;
  lost(worker: PoolWorker, reason: string): void;
  /** True while the ends workers published must wait to be read (end-ring.ts `drain`). */
  holdEnds?(): boolean;
  /**
   * A worker that died before it was ready has been started again after its backoff: nothing
   * else tells the executor a worker is there to take the runs that waited meanwhile.
   */
  respawned?(): void;
}

export class WorkerPool {
  private readonly workers = new Map<number, PoolWorker>();
  private readonly backoff = new BootBackoff();
  private count = 0;
  private closed = false;

  constructor(
    private readonly origin: bigint,
    private readonly limits: ResourceLimits,
    private readonly events: PoolEvents,
    /** The backend's `setTimer` (its clock, cleared on close), for delayed respawns. */
    private readonly later: (delayNanos: number, fn: () => void) => void,
    /** Workers may keep a call suspended in `await ctx.yield()` (protocol.ts `suspends`). */
    private readonly suspends = false,
    /** Workers take their dispatches through a dispatch ring (dispatch-ring.ts, outbox.ts). */
    private readonly rings = false,
  ) {}

  /** The worker count asked for; workers beyond it are retiring. */
  get target(): number {
    return this.count;
  }

  get(id: number): PoolWorker | undefined {
    return this.workers.get(id);
  }

  /** Every worker, retiring ones included. */
  all(): IterableIterator<PoolWorker> {
    return this.workers.values();
  }

  /** Whether `worker` is still the one on its id (neither lost nor retired). */
  holds(worker: PoolWorker): boolean {
    return this.workers.get(worker.id) === worker;
  }

  /** Resolves when every current worker has started and calibrated its kernels. */
  async ready(): Promise<void> {
    await Promise.all([...this.workers.values()].map((worker) => worker.ready));
  }

  /**
   * Sets the target (checked by the caller) and starts every missing worker below it. Returns the
   * workers beyond it, in the order they were made: the caller takes back what is queued there,
   * then `retireIfIdle`s each.
   */
  setTarget(count: number): PoolWorker[] {
    this.count = count;
    for (let id = 0; id < count; id++) if (!this.workers.has(id)) this.spawn(id);
    return [...this.workers.values()].filter((worker) => worker.id >= count);
  }

  /** Workers within the target with no dispatch running, lowest first. */
  idle(): number[] {
    const idle: number[] = [];
    for (let id = 0; id < this.count; id++) {
      if (this.workers.get(id)?.running === null) idle.push(id);
    }
    return idle;
  }

  /** Busy workers within the target with room for a queued dispatch, lowest first. */
  queueable(): number[] {
    const out: number[] = [];
    for (let id = 0; id < this.count; id++) {
      const worker = this.workers.get(id);
      if (worker !== undefined && worker.running !== null && worker.queued === null) out.push(id);
    }
    return out;
  }

  /** A worker beyond the target retires once nothing runs there. */
  retireIfIdle(worker: PoolWorker): void {
    if (worker.running === null && worker.id >= this.count) this.retire(worker);
  }

  /**
   * `worker`'s thread died (the caller has emptied the worker): a fresh worker takes its id at once,
   * or after a backoff when this one never got ready (a broken environment would spin).
   */
  replace(worker: PoolWorker): void {
    this.workers.delete(worker.id);
    worker.markReady();
    if (worker.id >= this.count) return;
    if (worker.booted) this.spawn(worker.id);
    else this.respawnLater(worker.id);
  }

  /** Stops every worker; resolves once they have exited. */
  async close(): Promise<void> {
    this.closed = true;
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(workers.map((worker) => worker.host.retire()));
  }

  private spawn(id: number): void {
    const worker = spawnWorker(
      id,
      this.origin,
      this.limits,
      this.suspends,
      {
        ready: () => {
          this.backoff.started(id);
          this.events.ready(worker);
        },
        end: (report) => this.events.end(worker, report),
        stray: (error) => this.events.stray(worker, error),
        lost: (reason) => this.events.lost(worker, reason),
        holdEnds: () => this.events.holdEnds?.() === true,
      },
      this.rings,
    );
    this.workers.set(id, worker);
  }

  private respawnLater(id: number): void {
    const delay = this.backoff.failed(id);
    this.later(delay * 1e6, () => {
      if (this.closed || id >= this.count || this.workers.has(id)) return;
      this.spawn(id);
      this.events.respawned?.();
    });
  }

  private retire(worker: PoolWorker): void {
    this.workers.delete(worker.id);
    worker.markReady();
    void worker.host.retire();
  }
}
