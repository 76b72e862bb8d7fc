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
 * sent as a message, never both or neither. The worker parks before it reports its end, so the
 * executor, which starts the next run only after every worker's end, always finds it PARKED unless
 * the wait already timed out.
 *
 * One wake-up a run: the executor claims every parked worker but wakes only the first. The others
 * stay asleep, CLAIMED, as helpers: a running worker wakes one (`share`) when it has work another
 * could take (roots left to claim, nodes pushed on its deque). A graph that never has such work (a
 * chain, a single node) runs on one worker, and its run ends without waiting for the others to be
 * scheduled: the first worker to finish hands every still-CLAIMED helper back (CLAIMED → PARKED,
 * by compare-and-swap against the helper taking its claim, CLAIMED → AWAY) and counts it finished
 * with empty statistics. Before, every worker was woken and had to run to the end, and on a busy
 * machine the run waited for the last one to get a core.
 *
 * The end of a run travels back the same way: each worker writes its loop statistics to its own
 * slots of the block and counts itself finished; the last one sets the done word, on which the
 * executor waits with `Atomics.waitAsync` (one wake-up of the main thread a run, where a `done`
 * message from every worker cost a structured clone and an event-loop trip each).
 */
import type { LoopStats } from './worker-loop.ts';

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
/** Workers that finished the run, and the done word the last of them sets (1) and notifies. */
const FINISHED = 4;
/** Claimed workers not woken yet (`share` wakes them one at a time). */
const HELPERS = 5;
/** In each worker's line after its state word: 1 once it was woken for the current claim. */
const WOKEN = 1;
const DONE = 8;
/** The run's time origin (a bigint), in the BigInt64Array view. */
const ORIGIN = 0;
/** Each worker's loop statistics, in this order, in the Float64Array after the origin. */
const STAT_FIELDS = [
  'executed',
  'attempts',
  'steals',
  'stealAttempts',
  'sleeps',
  'idleNanos',
  'spansWritten',
  'startNanos',
  'endNanos',
] as const satisfies readonly (keyof LoopStats)[];
/** Doubles per worker: its statistics on their own 128 bytes. */
const STAT_STRIDE = 16;

/** `Atomics.waitAsync` (ES2024; the project's lib is ES2023). */
type WaitAsync = (
  a: Int32Array,
  index: number,
  value: number,
) => { async: false; value: string } | { async: true; value: Promise<string> };
const waitAsync = (Atomics as unknown as { waitAsync: WaitAsync }).waitAsync;

/** The statistics of a claimed worker that never ran (`finish`): nothing done. */
const IDLE = {
  executed: 0,
  attempts: 0,
  steals: 0,
  stealAttempts: 0,
  sleeps: 0,
  idleNanos: 0,
  spansWritten: 0,
} as const;

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
  private readonly stats: Float64Array;
  private readonly settings: number;

  constructor(
    buffer: SharedArrayBuffer,
    private readonly workers: number,
  ) {
    this.ints = new Int32Array(buffer);
    this.settings = workers * STRIDE;
    const originAt = 4 * (this.settings + STRIDE);
    this.origin = new BigInt64Array(buffer, originAt, 1);
    this.stats = new Float64Array(buffer, originAt + 8, workers * STAT_STRIDE);
  }

  static allocate(workers: number): SharedArrayBuffer {
    // Workers' lines, a line of settings, the origin (8-byte aligned), then the statistics.
    return new SharedArrayBuffer(4 * (workers * STRIDE + STRIDE) + 8 + 8 * workers * STAT_STRIDE);
  }

  /**
   * Executor: clears the finish count and done word of the last run and returns a promise that
   * settles when every worker of the next run finished (`finish`). Call before starting a run.
   */
  nextRunEnd(): Promise<void> {
    const s = this.settings;
    Atomics.store(this.ints, s + FINISHED, 0);
    Atomics.store(this.ints, s + DONE, 0);
    const wait = waitAsync(this.ints, s + DONE, 0);
    return wait.async ? wait.value.then(() => undefined) : Promise.resolve();
  }

  /** Executor: whether every worker finished the run (read after `nextRunEnd` settled). */
  get runEnded(): boolean {
    return Atomics.load(this.ints, this.settings + DONE) === 1;
  }

  /** Executor: the workers' statistics of the run that ended. */
  runStats(): LoopStats[] {
    return Array.from({ length: this.workers }, (_, w) => {
      const at = w * STAT_STRIDE;
      const stats: Record<string, number> = { workerId: w };
      STAT_FIELDS.forEach((field, i) => (stats[field] = this.stats[at + i]!));
      return stats as unknown as LoopStats;
    });
  }

  /**
   * Worker: stores its statistics and counts itself finished; the last worker sets the done word
   * and wakes the executor. Parks first (`park`), so the next run finds every worker parked.
   */
  finish(stats: LoopStats): void {
    this.writeStats(stats);
    const s = this.settings;
    // The run is over (a worker leaves its loop only then): helpers that never took their claim
    // are handed back and finished here, with empty statistics that end where this worker did.
    let finished = 1;
    for (let other = 0; other < this.workers; other++) {
      if (Atomics.compareExchange(this.ints, other * STRIDE, CLAIMED, PARKED) !== CLAIMED) continue;
      const at = stats.endNanos;
      this.writeStats({ ...IDLE, workerId: other, startNanos: at, endNanos: at });
      finished++;
    }
    if (Atomics.add(this.ints, s + FINISHED, finished) + finished === this.workers) {
      Atomics.store(this.ints, s + DONE, 1);
      Atomics.notify(this.ints, s + DONE);
    }
  }

  private writeStats(stats: LoopStats): void {
    const at = stats.workerId * STAT_STRIDE;
    STAT_FIELDS.forEach((field, i) => (this.stats[at + i] = stats[field]));
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

  /**
   * Executor: hands the written run to worker `w` if it is parked (false means send a message).
   * Claim every worker, then `start` the run.
   */
  claim(w: number): boolean {
    Atomics.store(this.ints, w * STRIDE + WOKEN, 0);
    return Atomics.compareExchange(this.ints, w * STRIDE, PARKED, CLAIMED) === PARKED;
  }

  /** Executor: wakes the first of the claimed workers `claimed`; the rest wait to be `share`d. */
  start(claimed: readonly number[]): void {
    Atomics.store(this.ints, this.settings + HELPERS, Math.max(0, claimed.length - 1));
    const first = claimed[0];
    if (first === undefined) return;
    Atomics.store(this.ints, first * STRIDE + WOKEN, 1);
    Atomics.notify(this.ints, first * STRIDE);
  }

  /**
   * Worker `w`, running, has work another worker could take: wakes one claimed helper, if any is
   * left. Returns false once none is (the count only falls during a run), so the caller can stop
   * asking.
   */
  share(w: number): boolean {
    const helpers = this.settings + HELPERS;
    if (Atomics.load(this.ints, helpers) <= 0) return false;
    for (let other = 0; other < this.workers; other++) {
      if (other === w || Atomics.load(this.ints, other * STRIDE) !== CLAIMED) continue;
      if (Atomics.compareExchange(this.ints, other * STRIDE + WOKEN, 0, 1) !== 0) continue;
      Atomics.notify(this.ints, other * STRIDE);
      return Atomics.sub(this.ints, helpers, 1) > 1;
    }
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
   * (or the worker was released) and it is AWAY again (the next run will come as a message). A
   * claim handed back before this worker took it (`finish`) leaves it PARKED: it waits on.
   */
  awaitRun(w: number, ms: number): ParkedRun | null {
    const at = w * STRIDE;
    let deadline = performance.now() + ms;
    // Runs this worker was handed back from (not needed) still count as activity: it stays parked
    // until `ms` pass without any run, not `ms` after its own last run.
    let lastRun = Atomics.load(this.ints, this.settings + RUN_ID);
    for (;;) {
      const left = deadline - performance.now();
      if (left > 0) Atomics.wait(this.ints, at, PARKED, left);
      const state = Atomics.load(this.ints, at);
      if (state === AWAY) return null; // released: new memory, the run comes as a message
      if (state === CLAIMED) {
        if (Atomics.compareExchange(this.ints, at, CLAIMED, AWAY) === CLAIMED) break;
        continue; // handed back meanwhile: PARKED again
      }
      if (performance.now() < deadline) continue;
      const run = Atomics.load(this.ints, this.settings + RUN_ID);
      if (run !== lastRun) {
        lastRun = run;
        deadline = performance.now() + ms;
        continue;
      }
      if (Atomics.compareExchange(this.ints, at, PARKED, AWAY) === PARKED) return null;
    }
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
