/**
 * The threads backend's lanes and the lifecycle of the workers on them. Worker ids are lanes: a
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
import { spawnLane, type Lane } from './lane.ts';
import type { QuantumReport, StrayError } from './protocol.ts';

/** What a lane's worker tells the backend: a quantum's end, or that it died. */
export interface PoolEvents {
  /** The lane's worker has started (a dispatch waiting in its port starts now). */
  ready(lane: Lane): void;
  end(lane: Lane, report: QuantumReport): void;
  stray(lane: Lane, error: StrayError): void;
  lost(lane: Lane, reason: string): void;
}

export class LanePool {
  private readonly lanes = new Map<number, Lane>();
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
  ) {}

  /** The worker count asked for; lanes beyond it are retiring. */
  get target(): number {
    return this.count;
  }

  get(id: number): Lane | undefined {
    return this.lanes.get(id);
  }

  /** Every lane, retiring ones included. */
  all(): IterableIterator<Lane> {
    return this.lanes.values();
  }

  /** Whether `lane` is still the one on its id (neither lost nor retired). */
  holds(lane: Lane): boolean {
    return this.lanes.get(lane.id) === lane;
  }

  /** Resolves when every current worker has started and calibrated its kernels. */
  async ready(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lane) => lane.ready));
  }

  /**
   * Sets the target (checked by the caller) and starts every missing lane below it. Returns the
   * lanes beyond it, in the order they were made: the caller takes back what is queued there,
   * then `retireIfIdle`s each.
   */
  setTarget(count: number): Lane[] {
    this.count = count;
    for (let id = 0; id < count; id++) if (!this.lanes.has(id)) this.spawn(id);
    return [...this.lanes.values()].filter((lane) => lane.id >= count);
  }

  /** Lanes within the target with no dispatch running, lowest first. */
  idle(): number[] {
    const idle: number[] = [];
    for (let id = 0; id < this.count; id++) {
      if (this.lanes.get(id)?.running === null) idle.push(id);
    }
    return idle;
  }

  /** Busy lanes within the target with room for a queued dispatch, lowest first. */
  queueable(): number[] {
    const out: number[] = [];
    for (let id = 0; id < this.count; id++) {
      const lane = this.lanes.get(id);
      if (lane !== undefined && lane.running !== null && lane.queued === null) out.push(id);
    }
    return out;
  }

  /** A lane beyond the target retires once nothing runs there. */
  retireIfIdle(lane: Lane): void {
    if (lane.running === null && lane.id >= this.count) this.retire(lane);
  }

  /**
   * `lane`'s worker died (the caller has emptied the lane): a fresh worker takes its id at once,
   * or after a backoff when this one never got ready (a broken environment would spin).
   */
  replace(lane: Lane): void {
    this.lanes.delete(lane.id);
    lane.markReady();
    if (lane.id >= this.count) return;
    if (lane.booted) this.spawn(lane.id);
    else this.respawnLater(lane.id);
  }

  /** Stops every worker; resolves once they have exited. */
  async close(): Promise<void> {
    this.closed = true;
    const lanes = [...this.lanes.values()];
    this.lanes.clear();
    await Promise.all(lanes.map((lane) => lane.host.retire()));
  }

  private spawn(id: number): void {
    const lane = spawnLane(id, this.origin, this.limits, this.suspends, {
      ready: () => {
        this.backoff.started(id);
        this.events.ready(lane);
      },
      end: (report) => this.events.end(lane, report),
      stray: (error) => this.events.stray(lane, error),
      lost: (reason) => this.events.lost(lane, reason),
    });
    this.lanes.set(id, lane);
  }

  private respawnLater(id: number): void {
    const delay = this.backoff.failed(id);
    this.later(delay * 1e6, () => {
      if (!this.closed && id < this.count && !this.lanes.has(id)) this.spawn(id);
    });
  }

  private retire(lane: Lane): void {
    this.lanes.delete(lane.id);
    lane.markReady();
    void lane.host.retire();
  }
}
