/**
 * The `ctx` a user module's function is given for a quantum (user-module.ts has the contract):
 * `shouldYield()`, `yield()`, `signal`, `quantumNanos`. A call parked in `await ctx.yield()`
 * keeps its context across quanta (quantum-runner.ts `resume`).
 */
import type { Dispatch } from '../backend.ts';
import { isCancelRequested, quantumCut } from './control.ts';
import { moved } from './transfer.ts';
import type { TaskContext } from './user-module.ts';

/** `ctx.yield()` when the quantum is not used up: one settled promise, no allocation. */
const RESOLVED = Promise.resolve();
/** What `awaitModule` races against the module's promise: the call parked in `ctx.yield()`. */
export const PARKED = Symbol('parked');

/**
 * The `ctx` of a module's quantum. Its `signal` is made when first read (an AbortController a
 * quantum costs more than a tiny task), aborted then if the split was cancelled already.
 */
export class QuantumContext implements TaskContext {
  private aborter: AbortController | null = null;
  private stopped = false;
  quantumNanos: number;
  /** The call's `await ctx.yield()` when it parked: how to continue it, or to reject it. */
  private parked: { resume: () => void; reject: (error: Error) => void } | null = null;
  /** Tells `awaitModule` the call parked (set while it waits). */
  private onPark: ((value: typeof PARKED) => void) | null = null;
  private dropped = false;

  constructor(
    private dispatch: Dispatch,
    private begun: number,
    private readonly clock: () => number,
    private readonly control: Int32Array,
    private readonly suspends: boolean,
  ) {
    this.quantumNanos = dispatch.quantumNanos;
  }

  /** An arrow, so `const { yield: pause } = ctx` works too. Cheap while the quantum lasts. */
  readonly yield = (): Promise<void> => {
    if (this.dropped) return Promise.reject(new Error('split cancelled'));
    // Where calls cannot stay suspended the call just goes on (it keeps its worker).
    if (!this.suspends || !this.shouldYield()) return RESOLVED;
    if (this.parked !== null) return Promise.reject(new Error('ctx.yield() is already awaited'));
    const wait = new Promise<void>((resume, reject) => (this.parked = { resume, reject }));
    this.onPark?.(PARKED);
    return wait;
  };

  move<T>(value: T): T {
    return moved(value);
  }

  /** Resolves with `PARKED` once the call awaits `ctx.yield()` (at once if it already does). */
  whenParked(): Promise<typeof PARKED> {
    if (this.parked !== null) return Promise.resolve(PARKED);
    return new Promise((resolve) => (this.onPark = resolve));
  }

  /** The split's next quantum: returns what continues the parked call. */
  restart(dispatch: Dispatch, begun: number): () => void {
    this.dispatch = dispatch;
    this.begun = begun;
    this.quantumNanos = dispatch.quantumNanos;
    this.onPark = null;
    const { resume } = this.parked!;
    this.parked = null;
    return resume;
  }

  /** The split is cancelled while parked: its await rejects; the call is not resumed. */
  drop(): void {
    this.dropped = true;
    this.onPark = null;
    const parked = this.parked;
    this.parked = null;
    this.aborter?.abort(new Error('split cancelled'));
    parked?.reject(new Error('split cancelled'));
  }

  /** True once the split is cancelled; aborts the signal then. */
  cancelled(): boolean {
    if (!this.stopped && isCancelRequested(this.control, this.dispatch.splitId)) {
      this.stopped = true;
      this.aborter?.abort(new Error('split cancelled'));
    }
    return this.stopped;
  }

  /** An arrow, so `const { shouldYield } = ctx` works too. */
  readonly shouldYield = (): boolean => {
    if (this.cancelled()) return true;
    const ran = this.clock() - this.begun;
    const { quantumNanos, splitId } = this.dispatch;
    return ran >= quantumNanos || ran >= quantumCut(this.control, splitId);
  };

  get signal(): AbortSignal {
    if (this.aborter === null) {
      this.aborter = new AbortController();
      if (this.stopped) this.aborter.abort(new Error('split cancelled'));
    }
    return this.aborter.signal;
  }
}
