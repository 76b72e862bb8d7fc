/**
 * Parking between runs (docs/design.md §3.4). After a run a worker waits a short while on its own
 * word of a block the executor shares with every worker, instead of going back to its event loop;
 * the next run of the same graph then starts it with a store and an `Atomics.notify` rather than
 * a message (a message costs a trip through both event loops, and on a busy machine a wait to be
 * scheduled on each). A run's settings travel in the block; its memory and kernels are the last
 * message's, which the worker keeps.
 *
 * Per worker, one state word: AWAY (running, or back in its event loop), PARKED (waiting), or
 * CLAIMED (the executor handed it a run). The executor moves PARKED → CLAIMED (a run) or
 * PARKED → AWAY (new memory: the run comes as a message), the worker PARKED → AWAY when its wait
 * runs out, all by compare-and-swap: exactly one wins, so a run is either taken from the block or
 * sent as a message, never both or neither. The worker parks before it reports `done`, so the executor, which starts the next run
 * only after every `done`, always finds it PARKED unless the wait already timed out.
 */
export const AWAY = 0;
export const PARKED = 1;
export const CLAIMED = 2;

/** How long a worker stays parked before it goes back to its event loop. */
export const PARK_MS = 20;

/** Ints per worker: its state word on its own 64-byte line. */
const STRIDE = 16;
/** The run's settings, after the workers' lines. */
const RUN_ID = 0;
const FAIL_FAST = 1;
const VERIFY = 2;
const SAMPLE_EVERY = 3;
/** The run's time origin (a bigint), in the BigInt64Array view. */
const ORIGIN = 0;

export interface ParkedRun {
  readonly runId: number;
  readonly failFast: boolean;
  readonly verify: boolean;
  readonly sampleEvery: number;
  readonly origin: bigint;
}

export class ParkBlock {
  readonly ints: Int32Array;
  private readonly origin: BigInt64Array;
  private readonly settings: number;

  constructor(buffer: SharedArrayBuffer, workers: number) {
    this.ints = new Int32Array(buffer);
    this.settings = workers * STRIDE;
    this.origin = new BigInt64Array(buffer, 4 * (this.settings + STRIDE), 1);
  }

  static allocate(workers: number): SharedArrayBuffer {
    // Workers' lines, a line of settings, then the origin (8-byte aligned).
    return new SharedArrayBuffer(4 * (workers * STRIDE + STRIDE) + 8);
  }

  /** Executor: writes the run's settings (before any worker is claimed). */
  writeRun(run: ParkedRun): void {
    const s = this.settings;
    this.ints[s + RUN_ID] = run.runId;
    this.ints[s + FAIL_FAST] = run.failFast ? 1 : 0;
    this.ints[s + VERIFY] = run.verify ? 1 : 0;
    this.ints[s + SAMPLE_EVERY] = run.sampleEvery;
    Atomics.store(this.origin, ORIGIN, run.origin);
  }

  /** Executor: hands the written run to worker `w` if it is parked; false means send a message. */
  claim(w: number): boolean {
    if (Atomics.compareExchange(this.ints, w * STRIDE, PARKED, CLAIMED) !== PARKED) return false;
    Atomics.notify(this.ints, w * STRIDE);
    return true;
  }

  /**
   * Executor: sends worker `w` back to its event loop now if it is parked (the next run comes as
   * a message: new memory), rather than when its wait runs out.
   */
  release(w: number): void {
    if (Atomics.compareExchange(this.ints, w * STRIDE, PARKED, AWAY) === PARKED)
      Atomics.notify(this.ints, w * STRIDE);
  }

  /** Worker `w`: marks itself parked (before reporting `done`). */
  park(w: number): void {
    Atomics.store(this.ints, w * STRIDE, PARKED);
  }

  /**
   * Worker `w`: waits up to `ms` for a run; returns its settings, or null when the wait ran out
   * and the worker is AWAY again (the next run will come as a message).
   */
  awaitRun(w: number, ms: number): ParkedRun | null {
    const at = w * STRIDE;
    Atomics.wait(this.ints, at, PARKED, ms);
    // PARKED: the wait ran out; AWAY: released. Either way the next run comes as a message.
    if (Atomics.compareExchange(this.ints, at, PARKED, AWAY) !== CLAIMED) return null;
    Atomics.store(this.ints, at, AWAY);
    const s = this.settings;
    return {
      runId: this.ints[s + RUN_ID]!,
      failFast: this.ints[s + FAIL_FAST] === 1,
      verify: this.ints[s + VERIFY] === 1,
      sampleEvery: this.ints[s + SAMPLE_EVERY]!,
      origin: Atomics.load(this.origin, ORIGIN),
    };
  }
}
