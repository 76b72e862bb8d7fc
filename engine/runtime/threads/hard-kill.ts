/**
 * The threads backend's hard limit (`Backend.setHardKill`, `hardKillAfterMs` in shared/config.ts):
 * a watchdog that looks at every worker a few times a second and kills the thread of a quantum that
 * overran past the limit, or of a cancelled user module that did not stop within its grace (once
 * more when a grace ends, not only at its next look). Nothing else stops
 * a user module that loops without yielding or awaits a promise that never settles: the cancel
 * word is read only between units and by `ctx.shouldYield()`, so such a module holds its worker
 * for good.
 */
import { HARD_KILL_FLOOR_NANOS, type Dispatch } from '../backend.ts';
import type { PoolWorker } from './pool-worker.ts';

/** The watchdog looks 4 times per limit, but at most every 250 ms and at least every 5 ms. */
const SWEEPS_PER_LIMIT = 4;
const MAX_PERIOD_MS = 250;
const MIN_PERIOD_MS = 5;
/** A tick later than two periods and this is skipped (see `start`). */
const LATE_SLACK_MS = 50;

/**
 * What a dispatch may run before the hard limit counts its overrun: a user module its quantum; a
 * built-in kernel without end, since it always stops by itself (it reads the clock and the cancel
 * word between units of ≈100 µs) and overruns only when the machine is loaded or its call is
 * declared atomic (`perCallNanos`, Trino's long calls): killing it would only lose the work.
 */
export function allowedNanos(d: Dispatch): number {
  return typeof d.work.kernel === 'string' ? Infinity : d.quantumNanos;
}

/** The limit for `d`: `afterNanos`, or when 0 (auto) max(10 × its quantum, 5 s). */
export function hardLimitFor(d: Dispatch, afterNanos: number): number {
  return afterNanos > 0 ? afterNanos : Math.max(10 * d.quantumNanos, HARD_KILL_FLOOR_NANOS);
}

/**
 * How long a user module's call cancelled while it runs may go on before its thread is killed:
 * time for a call that reads `ctx.shouldYield()` or `ctx.signal` to stop and run its `finally`
 * blocks; one that reads neither (a Piscina task file) gives its worker back this soon after an
 * abort, as Piscina's does at once, not after the hard limit (5 s at least by default).
 */
export const CANCEL_GRACE_NANOS = 100e6;

/**
 * How long `d` may run on after its cancel: a user module the grace (or the hard limit when lower);
 * a built-in kernel the hard limit, since it stops by itself (see `allowedNanos`).
 */
export function cancelLimitFor(d: Dispatch, afterNanos: number): number {
  const limit = hardLimitFor(d, afterNanos);
  return typeof d.work.kernel === 'string' ? limit : Math.min(limit, CANCEL_GRACE_NANOS);
}

const ms = (nanos: number) => `${Math.round(nanos / 1e5) / 10} ms`;

export class HardKill {
  private afterNanos = 0;
  private timer: NodeJS.Timeout | null = null;
  /** One look more when the next cancel's grace ends (backend time `soonAt`). */
  private soon: NodeJS.Timeout | null = null;
  private soonAt = Infinity;

  constructor(
    private readonly now: () => number,
    /** The workers to watch (the caller's live set; copied before any kill changes it). */
    private readonly workers: () => Iterable<PoolWorker>,
    /**
     * Kills `worker`'s thread and ends its split (`cancelled`: it was asked to stop); false when
     * the split turned out to have ended meanwhile.
     */
    private readonly kill: (worker: PoolWorker, why: string, cancelled: boolean) => boolean,
  ) {}

  get limitNanos(): number {
    return this.afterNanos;
  }

  /** Sets the limit (0 = auto) and (re)starts the watchdog at a period to match. */
  set(afterNanos: number): void {
    this.afterNanos = Math.max(0, afterNanos);
    this.start();
  }

  start(): void {
    this.stop();
    const limitMs = this.afterNanos > 0 ? this.afterNanos / 1e6 : Infinity;
    const period = Math.max(MIN_PERIOD_MS, Math.min(MAX_PERIOD_MS, limitMs / SWEEPS_PER_LIMIT));
    let last = performance.now();
    this.timer = setInterval(() => {
      // A tick this late means the main thread was blocked (a burst of `scheduler.run` calls,
      // a heap snapshot): quantum ends may wait unread in the ports, so `running` is stale and a
      // sweep now would kill workers that finished long ago. The next tick comes after the event
      // loop has read them; a quantum that really overran is killed then.
      const at = performance.now();
      const late = at - last > 2 * period + LATE_SLACK_MS;
      last = at;
      if (!late) this.sweep();
    }, period);
    // A watchdog alone must not keep a process alive (the backend's own close stops it).
    this.timer.unref();
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    if (this.soon !== null) clearTimeout(this.soon);
    this.soon = null;
  }

  /**
   * A cancel asked at backend time `atNanos` of a split running now: looks again as its grace ends,
   * so the kill comes then, not up to a period (250 ms) later.
   */
  cancelled(atNanos: number): void {
    this.lookAt(atNanos + CANCEL_GRACE_NANOS);
  }

  /** Sweeps once at backend time `atNanos`, unless a look is due sooner. */
  private lookAt(atNanos: number): void {
    if (this.timer === null || (this.soon !== null && this.soonAt <= atNanos)) return;
    if (this.soon !== null) clearTimeout(this.soon);
    this.soonAt = atNanos;
    // A millisecond past it: the limit is "more than", and a timer may round down.
    const delayMs = Math.max(0, (atNanos - this.now()) / 1e6) + 1;
    const due = performance.now() + delayMs;
    this.soon = setTimeout(() => {
      this.soon = null;
      // Late as the interval's tick can be (see `start`): its ends may wait unread, so the next
      // tick sweeps instead, once they are read.
      if (performance.now() - due <= LATE_SLACK_MS) this.sweep();
    }, delayMs);
    this.soon.unref();
  }

  /** Kills what is overdue now; returns how many workers it killed. */
  sweep(): number {
    const now = this.now();
    let killed = 0;
    /** When the next cancelled split still running reaches its limit. */
    let next = Infinity;
    // Ends published on a worker's end ring and not read yet are read first: `running` is then
    // what the worker runs (or ran last).
    for (const worker of [...this.workers()]) worker.drainEnds();
    for (const worker of [...this.workers()]) {
      const d = worker.running;
      // Not booted: its dispatch waits in the port. Queued one started: the running one's end is
      // on its way (the main thread has not read it yet), so `running` is stale.
      if (d === null || !worker.booted || worker.queuedStarted()) continue;
      if (worker.cancelAt !== null) {
        const grace = cancelLimitFor(d, this.afterNanos);
        if (now - worker.cancelAt > grace) {
          const why = `killed: it did not stop within ${ms(grace)} of its cancel`;
          if (this.kill(worker, why, true)) killed++;
          continue;
        }
        next = Math.min(next, worker.cancelAt + grace);
      }
      const limit = hardLimitFor(d, this.afterNanos);
      const overrun = now - worker.sentAt - allowedNanos(d);
      if (overrun > limit) {
        // The split is named by whoever reports it (the job's error, the notice): this reads the
        // same in a library run's error, where splits mean nothing.
        const why = `killed: its quantum overran by ${ms(overrun)} without yielding, past hardKillAfterMs (${ms(limit)}); a task that cannot yield needs a higher hardKillAfterMs`;
        if (this.kill(worker, why, false)) killed++;
      }
    }
    if (next < Infinity) this.lookAt(next);
    return killed;
  }
}
