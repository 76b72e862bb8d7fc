/**
 * The `sim` backend (DESIGN.md §4): a discrete-event simulator with a virtual clock. A dispatch
 * costs virtual time from the split's work and nothing else:
 * - with `perCallNanos`, exactly one call of `min(remaining, perCallNanos)` (atomic: it may overrun
 *   the quantum, like Trino's leaf splits), otherwise `min(quantum, remaining)`;
 * - if work is left and `blockedNanosPerCall` is set, the quantum ends `blocked` for that long;
 * - kernel `sleep` does no CPU work: a dispatch blocks for one call, `min(remaining, perCallNanos)`
 *   (all that remains without `perCallNanos`), the worker free at once; the dispatch after the
 *   last call finishes (threads' quantum-runner.ts does the same);
 * - `failProbability` draws from the seeded RNG.
 * Same seed and same calls → the same events in the same order: byte-identical reports.
 * `runUntil(t)` / `runUntilIdle()` drive the clock; nothing happens between calls.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type {
  Backend,
  BackendEvents,
  Dispatch,
  QuantumEnd,
  QuantumOutcome,
  SplitWork,
} from '../backend.ts';
import { EventHeap } from './event-heap.ts';
import { mulberry32 } from './rng.ts';

export interface SimOptions {
  readonly workers?: number;
  readonly seed?: number;
  /** Virtual ns charged per dispatch on top of the work (dispatch overhead); default 0. */
  readonly dispatchOverheadNanos?: number;
}

const TIMER = -1;
const FAILURE = 'injected failure (failProbability)';

/** The `QuantumEnd` the sim refills for transient listeners; `error` undefined unless failed. */
interface MutableEnd {
  splitId: number;
  workerId: number;
  startNanos: number;
  endNanos: number;
  ranNanos: number;
  workNanos: number;
  outcome: QuantumOutcome;
  blockedNanos: number;
  error: string | undefined;
  /** The sim runs no user code: never a result (declared so every end has one shape). */
  readonly result: undefined;
}

function newEnd(): MutableEnd {
  return {
    splitId: 0,
    workerId: 0,
    startNanos: 0,
    endNanos: 0,
    ranNanos: 0,
    workNanos: 0,
    outcome: 'yielded',
    blockedNanos: 0,
    error: undefined,
    result: undefined,
  };
}

export class SimBackend implements Backend {
  readonly kind = 'sim' as const;
  private clock = 0;
  private count: number;
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
  // Per worker slot; arrays grow with the worker count and never shrink.
  private busy: boolean[] = [];
  /**
   * Idle worker slots as a bitset (bit w%32 of word w>>5), mirroring `busy`: `idleWorkers()` runs
   * before every dispatch, and with dozens of workers mostly busy a scan of `busy` costs more than
   * the rest of the quantum.
   */
  private idleBits: number[] = [];
  private gen: number[] = [];
  private splitId: number[] = [];
  private startAt: number[] = [];
  private ran: number[] = [];
  private work: number[] = [];
  private outcome: QuantumOutcome[] = [];
  private blocked: number[] = [];
  /** The running dispatch's work, for `shortenQuantum` (one store per dispatch, no allocation). */
  private workOf: (SplitWork | null)[] = [];
  private eventsRun = 0;
  private readonly sharedEnd = newEnd();

  constructor(options: SimOptions = {}) {
    this.count = 0;
    this.rng = mulberry32(options.seed ?? 1);
    this.overhead = options.dispatchOverheadNanos ?? 0;
    this.setWorkerCount(options.workers ?? 4);
  }

  now(): number {
    return this.clock;
  }

  get workerCount(): number {
    return this.count;
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
    for (let w = this.busy.length; w < count; w++) {
      this.busy.push(false);
      if (w >> 5 === this.idleBits.length) this.idleBits.push(0);
      this.idleBits[w >> 5]! |= 1 << (w & 31);
      this.gen.push(0);
      this.splitId.push(-1);
      this.startAt.push(0);
      this.ran.push(0);
      this.work.push(0);
      this.outcome.push('yielded');
      this.blocked.push(0);
      this.workOf.push(null);
    }
    this.count = count;
  }

  idleWorkers(): number[] {
    const out: number[] = [];
    const bits = this.idleBits;
    const count = this.count;
    for (let i = 0; i < bits.length; i++) {
      let word = bits[i]!;
      while (word !== 0) {
        const low = word & -word;
        const w = (i << 5) + 31 - Math.clz32(low);
        if (w >= count) return out;
        out.push(w);
        word ^= low;
      }
    }
    return out;
  }

  firstIdleWorker(): number {
    const bits = this.idleBits;
    for (let i = 0; i < bits.length; i++) {
      const word = bits[i]!;
      if (word === 0) continue;
      const w = (i << 5) + 31 - Math.clz32(word & -word);
      return w < this.count ? w : -1;
    }
    return -1;
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
    if (w < 0 || w >= this.count || this.busy[w]) {
      throw new SchedLabError('INVALID_ARGUMENT', `worker ${w} is not idle`, 'workerId');
    }
    const remaining = Math.max(0, work.totalNanos - doneNanos);
    let ran: number;
    let done: number;
    let outcome: QuantumOutcome;
    let blocked = 0;
    if (work.kernel === 'sleep') {
      const call =
        work.perCallNanos === undefined ? remaining : Math.min(remaining, work.perCallNanos);
      ran = 0;
      done = call;
      outcome = remaining > 0 ? 'blocked' : 'finished';
      blocked = call;
    } else {
      ran =
        work.perCallNanos !== undefined
          ? Math.min(remaining, work.perCallNanos)
          : Math.min(remaining, quantumNanos);
      done = ran;
      if (work.failProbability !== undefined && this.rng() < work.failProbability) {
        outcome = 'failed';
        done = 0;
      } else if (done >= remaining) {
        outcome = 'finished';
      } else if (work.blockedNanosPerCall !== undefined && work.blockedNanosPerCall > 0) {
        outcome = 'blocked';
        blocked = work.blockedNanosPerCall;
      } else {
        outcome = 'yielded';
      }
    }
    ran += this.overhead;
    this.busy[w] = true;
    this.idleBits[w >> 5]! &= ~(1 << (w & 31));
    this.splitId[w] = splitId;
    this.startAt[w] = this.clock;
    this.ran[w] = ran;
    this.work[w] = done;
    this.outcome[w] = outcome;
    this.blocked[w] = blocked;
    this.workOf[w] = work;
    this.ends.push(this.clock + ran, w, ++this.gen[w]!, null);
  }

  /**
   * Moves the worker's quantum end to `max(now, min(end, start + quantumNanos))`: the sim's units
   * are infinitely fine, so "the first unit boundary past" is that instant. The work done shrinks
   * with it; a quantum that would have finished its split now leaves work and yields (or blocks,
   * with `blockedNanosPerCall`). A failed quantum still fails, only sooner.
   */
  shortenQuantum(w: number, quantumNanos: number): void {
    const work = this.workOf[w];
    if (!this.busy[w] || work === null || work === undefined) return;
    if (work.perCallNanos !== undefined || this.outcome[w] === 'cancelled') return;
    const start = this.startAt[w]!;
    const end = start + this.ran[w]!;
    const newEnd = Math.max(this.clock, Math.min(end, start + quantumNanos));
    if (newEnd >= end) return;
    const ran = newEnd - start;
    const done = Math.max(0, ran - this.overhead);
    if (this.outcome[w] !== 'failed' && done < this.work[w]!) {
      this.work[w] = done;
      const blocks = work.blockedNanosPerCall !== undefined && work.blockedNanosPerCall > 0;
      this.outcome[w] = blocks ? 'blocked' : 'yielded';
      this.blocked[w] = blocks ? work.blockedNanosPerCall! : 0;
    }
    this.ran[w] = ran;
    this.ends.push(newEnd, w, ++this.gen[w]!, null);
  }

  cancel(splitId: number): void {
    for (let w = 0; w < this.busy.length; w++) {
      if (!this.busy[w] || this.splitId[w] !== splitId) continue;
      // Stops "at the next unit": now. The pending end event is invalidated by the new gen.
      const elapsed = this.clock - this.startAt[w]!;
      const full = this.ran[w]!;
      this.work[w] = full > 0 ? Math.floor((this.work[w]! * elapsed) / full) : 0;
      this.ran[w] = elapsed;
      this.outcome[w] = 'cancelled';
      this.blocked[w] = 0;
      this.ends.push(this.clock, w, ++this.gen[w]!, null);
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

  /** Processes every event up to and including virtual time `t`, then sets the clock to `t`. */
  runUntil(t: number): void {
    for (
      let heap = this.nextHeap();
      heap !== null && heap.peekTime() <= t;
      heap = this.nextHeap()
    ) {
      this.step(heap);
    }
    if (t > this.clock) this.clock = t;
  }

  /** Runs until no event is pending (or `maxEvents` have run: a guard against endless loads). */
  runUntilIdle(maxEvents = Number.MAX_SAFE_INTEGER): void {
    let n = 0;
    for (let heap = this.nextHeap(); heap !== null && n++ < maxEvents; heap = this.nextHeap()) {
      this.step(heap);
    }
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
    if (heap.slotGen(slot) !== this.gen[w] || !this.busy[w]) return; // superseded
    this.busy[w] = false;
    this.idleBits[w >> 5]! |= 1 << (w & 31);
    const listener = this.listener;
    if (listener === null) return;
    const outcome = this.outcome[w]!;
    if (listener.transientEnd !== true) {
      // One object shape for every outcome (no conditional spreads): the path stays monomorphic.
      const end: { -readonly [K in keyof QuantumEnd]: QuantumEnd[K] } = {
        splitId: this.splitId[w]!,
        workerId: w,
        startNanos: this.startAt[w]!,
        endNanos: this.clock,
        ranNanos: this.ran[w]!,
        workNanos: this.work[w]!,
        outcome,
        blockedNanos: this.blocked[w]!,
      };
      if (outcome === 'failed') end.error = FAILURE;
      listener.quantumEnd(end);
      return;
    }
    // A listener that keeps nothing gets the same object each time (no garbage per quantum).
    const end = this.sharedEnd;
    end.splitId = this.splitId[w]!;
    end.workerId = w;
    end.startNanos = this.startAt[w]!;
    end.endNanos = this.clock;
    end.ranNanos = this.ran[w]!;
    end.workNanos = this.work[w]!;
    end.outcome = outcome;
    end.blockedNanos = this.blocked[w]!;
    end.error = outcome === 'failed' ? FAILURE : undefined;
    listener.quantumEnd(end as QuantumEnd);
  }
}
