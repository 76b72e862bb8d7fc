/**
 * The `sim` backend (docs/design.md §4): a discrete-event simulator with a virtual clock. A dispatch
 * costs virtual time from the split's work and nothing else (quantum-plan.ts has the rules,
 * `failProbability` drawn from the seeded RNG among them); this file schedules the events —
 * quantum ends and timers — and runs them in (time, sequence) order. Worker slots are
 * sim-workers.ts; how an end reaches the executor, quantum-end.ts.
 * Same seed and same calls → the same events in the same order: byte-identical reports.
 * `runUntil(t)` / `runUntilIdle()` drive the clock; nothing happens between calls.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import {
  newEnd,
  type Backend,
  type BackendEvents,
  type Dispatch,
  type SplitWork,
} from '../backend.ts';
import { EventHeap } from './event-heap.ts';
import { deliverEnd } from './quantum-end.ts';
import { cancelPlan, planQuantum, shortenPlan } from './quantum-plan.ts';
import { mulberry32 } from '../../../shared/lib/rng.ts';
import { SimWorkers } from './sim-workers.ts';

export interface SimOptions {
  readonly workers?: number;
  readonly seed?: number;
  /** Virtual ns charged per dispatch on top of the work (dispatch overhead); default 0. */
  readonly dispatchOverheadNanos?: number;
}

const TIMER = -1;

/** A mask: the watchdog is looked at when the event count's low 16 bits are 0. */
const WATCH_EVERY = 0xffff;

export class SimBackend implements Backend {
  readonly kind = 'sim' as const;
  private clock = 0;
  /** Numbers events across both heaps, so together they keep one (time, sequence) order. */
  private readonly sequence = { next: 0 };
  /**
   * Quantum ends: about one per worker, so a small heap. Timers (wake-ups, retries, arrivals)
   * can number thousands, mostly far off; in one heap with them every quantum's end sifted up
   * through all of them.
   */
  private readonly ends = new EventHeap(this.sequence);
  private readonly timers = new EventHeap(this.sequence);
  private readonly rng: () => number;
  private readonly overhead: number;
  private listener: BackendEvents | null = null;
  private closed = false;
  private watchdog: (() => Error | null) | null = null;
  private readonly slots = new SimWorkers();
  private eventsRun = 0;
  private readonly sharedEnd = newEnd();

  constructor(options: SimOptions = {}) {
    this.rng = mulberry32(options.seed ?? 1);
    this.overhead = options.dispatchOverheadNanos ?? 0;
    this.setWorkerCount(options.workers ?? 4);
  }

  now(): number {
    return this.clock;
  }

  get workerCount(): number {
    return this.slots.count;
  }

  /** Events processed so far (for benchmarks). */
  get processedEvents(): number {
    return this.eventsRun;
  }

  /** Pending events (quantum ends and timers). */
  get pendingEvents(): number {
    return this.ends.size + this.timers.size;
  }

  setWorkerCount(count: number): void {
    if (!Number.isInteger(count) || count < 1) {
      throw new SchedLabError(
        'INVALID_CONFIG',
        `workers must be an integer >= 1 (got ${count})`,
        'workers',
      );
    }
    this.slots.resize(count);
  }

  idleWorkers(): number[] {
    return this.slots.idle();
  }

  firstIdleWorker(): number {
    return this.slots.firstIdle();
  }

  start(d: Dispatch): void {
    this.startQuantum(d.splitId, d.workerId, d.quantumNanos, d.work, d.doneNanos);
  }

  startQuantum(
    splitId: number,
    w: number,
    quantumNanos: number,
    work: SplitWork,
    doneNanos: number,
  ): void {
    if (this.closed)
      throw new SchedLabError('ENGINE_CLOSED', 'the sim backend is closed', 'backend');
    const slots = this.slots;
    if (w < 0 || w >= slots.count || slots.busy[w]) {
      throw new SchedLabError('INVALID_ARGUMENT', `worker ${w} is not idle`, 'workerId');
    }
    planQuantum(slots, w, work, doneNanos, quantumNanos, this.overhead, this.rng);
    slots.occupy(w);
    slots.splitId[w] = splitId;
    slots.startAt[w] = this.clock;
    slots.workOf[w] = work;
    this.ends.push(this.clock + slots.ran[w]!, w, ++slots.gen[w]!, null);
  }

  /** Cuts the worker's quantum to `quantumNanos` from its start if longer (quantum-plan.ts). */
  shortenQuantum(w: number, quantumNanos: number): void {
    const at = shortenPlan(this.slots, w, this.clock, quantumNanos, this.overhead);
    if (at >= 0) this.ends.push(at, w, ++this.slots.gen[w]!, null);
  }

  cancel(splitId: number): void {
    const slots = this.slots;
    for (let w = 0; w < slots.busy.length; w++) {
      if (!slots.busy[w] || slots.splitId[w] !== splitId) continue;
      // Ends now; the pending end event is invalidated by the new gen.
      cancelPlan(slots, w, this.clock);
      this.ends.push(this.clock, w, ++slots.gen[w]!, null);
      return;
    }
  }

  setTimer(atNanos: number, fn: () => void): () => void {
    const timers = this.timers;
    const slot = timers.push(Math.max(atNanos, this.clock), TIMER, 0, fn);
    const seq = timers.slotSeq(slot);
    return () => timers.cancel(slot, seq);
  }

  setListener(events: BackendEvents): void {
    this.listener = events;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.ends.clear();
    this.timers.clear();
  }

  /**
   * Processes every event up to and including virtual time `t`, then sets the clock to `t`; true
   * when it got there. With `maxEvents` it stops after that many, the clock at the last one's
   * time, and says false: a caller on the wall clock (a live session, the CLI's time limit) gets
   * its turn back however many events a stretch of virtual time holds (a split of 10^9 tiny
   * calls held the event loop for minutes).
   */
  runUntil(t: number, maxEvents = Number.POSITIVE_INFINITY): boolean {
    let n = 0;
    for (
      let heap = this.nextHeap();
      heap !== null && heap.peekTime() <= t;
      heap = this.nextHeap()
    ) {
      if (n++ >= maxEvents) return false;
      this.step(heap);
      if ((this.eventsRun & WATCH_EVERY) === 0) this.look();
    }
    if (t > this.clock) this.clock = t;
    return true;
  }

  /**
   * Looked at every 65,536 events of `runUntil` and `runUntilIdle`; an error it returns is thrown
   * there. The CLI's time limit: the sim holds the event loop, so the limit's timer cannot fire
   * (a split of 10^9 tiny calls inside one step, a graph run driven to idle in one call, ran on
   * past `--time-limit`).
   */
  watch(check: () => Error | null): void {
    this.watchdog = check;
  }

  /** No event pending: nothing will happen until something is started or scheduled. */
  get idle(): boolean {
    return this.nextHeap() === null;
  }

  /** Runs until no event is pending (or `maxEvents` have run: a guard against endless loads). */
  runUntilIdle(maxEvents = Number.MAX_SAFE_INTEGER): void {
    let n = 0;
    for (let heap = this.nextHeap(); heap !== null && n++ < maxEvents; heap = this.nextHeap()) {
      this.step(heap);
      // Counted over every call (not this one's): a caller driving in short slices is watched too.
      if ((this.eventsRun & WATCH_EVERY) === 0) this.look();
    }
  }

  private look(): void {
    const stop = this.watchdog?.() ?? null;
    if (stop !== null) throw stop;
  }

  /** The heap whose first event is the earliest of all, ties by sequence; null when idle. */
  private nextHeap(): EventHeap | null {
    const ends = this.ends;
    const timers = this.timers;
    if (timers.size === 0) return ends.size === 0 ? null : ends;
    if (ends.size === 0) return timers;
    const te = ends.peekTime();
    const tt = timers.peekTime();
    return tt < te || (tt === te && timers.peekSeq() < ends.peekSeq()) ? timers : ends;
  }

  private step(heap: EventHeap): void {
    const slot = heap.pop();
    const t = heap.slotTime(slot);
    if (t > this.clock) this.clock = t;
    this.eventsRun++;
    const w = heap.slotWorker(slot);
    if (w === TIMER) {
      const fn = heap.takeFn(slot);
      if (fn !== null) fn();
      return;
    }
    const slots = this.slots;
    if (heap.slotGen(slot) !== slots.gen[w] || !slots.busy[w]) return; // superseded
    slots.free(w);
    const listener = this.listener;
    if (listener !== null) deliverEnd(listener, slots, w, this.clock, this.sharedEnd);
  }
}
