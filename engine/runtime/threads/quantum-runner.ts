/**
 * Runs one dispatch inside a worker (backend.ts header has the semantics): a built-in kernel in
 * calibrated units until the quantum, the call or the work is used up, or a user module's function
 * with a `shouldYield` context. Measures wall time; never throws (a failure is an outcome).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transferable } from 'node:worker_threads';
import type { Dispatch, ErrorCause, KernelName, ModuleRef } from '../backend.ts';
import { isCancelRequested, quantumCut } from './control.ts';
import { PARKED, QuantumContext } from './quantum-context.ts';
import { calibrateKernel, CPU_KERNELS, sink, type Calibration } from './kernels.ts';
import type { QuantumReport } from './protocol.ts';
import { unwrapMoved } from './transfer.ts';
import { UnitMeter } from './unit-meter.ts';
import {
  isThenable,
  isYield,
  loadedFunction,
  loadUserFunction,
  type UserFunction,
} from './user-module.ts';

/** How often an async user function's abort signal looks at the cancel word (ms). */
const CANCEL_POLL_MS = 2;

/** The split and module a user module's code runs for, here and in every callback it schedules. */
export interface ModuleScope {
  readonly splitId: number;
  readonly module: string;
}

/**
 * Set around every user module call: an error thrown later from a timer or promise the module
 * made still knows which split and module it came from (worker-entry.ts reads it).
 */
export const moduleScope = new AsyncLocalStorage<ModuleScope>();

/**
 * A user module's quantum shorter than this is not measured for CPU time when it follows another:
 * the two reads of the thread's CPU clock (thread-cpu.ts, 5–15 µs each) would cost more than a
 * tiny task itself. Longer quanta, and every quantum of a built-in kernel, are measured.
 */
const CPU_MEASURED_AFTER_NANOS = 1_000_000;

/** A module call suspended in `await ctx.yield()` between its quanta, in this worker. */
interface Suspended {
  readonly pending: PromiseLike<unknown>;
  readonly ctx: QuantumContext;
}

export class QuantumRunner {
  private observed = 0;
  private readonly meters = new Map<string, UnitMeter>();
  /**
   * Calls suspended in `await ctx.yield()`, by split: each resumes when its split's next quantum
   * comes here, or is dropped when the split is cancelled (`drop`). At most one per live split.
   */
  private readonly suspended = new Map<number, Suspended>();
  /** Reports whose result or state moves its buffer (`transferOf`): few, gone with their report. */
  private readonly moves = new WeakMap<QuantumReport, Transferable[]>();
  /** The module quantum running now, and how to fail it from outside (`failRunning`). */
  private running: { readonly splitId: number; readonly fail: (error: unknown) => void } | null =
    null;

  /** This thread's CPU time when the running quantum started (`cpuClock`); −1: not measured. */
  private cpuStart = -1;
  /** The last quantum here was shorter than `CPU_MEASURED_AFTER_NANOS`. */
  private lastShort = false;

  constructor(
    private readonly clock: () => number,
    private readonly control: Int32Array,
    private readonly calibration: Calibration,
    /** This thread's CPU time (thread-cpu.ts), or null where there is none: no `cpuNanos`. */
    private readonly cpuClock: (() => number) | null = null,
    /** Calls may stay suspended in `await ctx.yield()` here (protocol.ts `suspends`). */
    private readonly suspends = false,
  ) {}

  /**
   * Runs one quantum. A built-in kernel, and a loaded module function that returns without a
   * promise, end synchronously (no promise, no event-loop turn); an async function or a module
   * loaded for the first time give a promise.
   */
  run(dispatch: Dispatch, input: unknown): QuantumReport | Promise<QuantumReport> {
    const { kernel } = dispatch.work;
    const builtIn = typeof kernel === 'string';
    // A kernel's first quantum here calibrates it first, before its clocks start.
    if (
      typeof kernel === 'string' &&
      !Object.hasOwn(this.calibration.sizes, kernel) &&
      Object.hasOwn(CPU_KERNELS, kernel)
    ) {
      calibrateKernel(kernel, this.clock, this.calibration);
    }
    this.cpuStart = this.cpuClock !== null && (builtIn || !this.lastShort) ? this.cpuClock() : -1;
    const start = this.clock();
    try {
      if (builtIn) return this.runKernel(dispatch, kernel, start);
      const parked = this.suspended.get(dispatch.splitId);
      if (parked !== undefined) return this.resume(dispatch, parked, start);
      const fn = loadedFunction(kernel);
      const out = moduleScope.run(new Scope(dispatch.splitId, kernel), () =>
        fn === undefined
          ? this.loadThenCall(dispatch, kernel, input, start)
          : this.callLoaded(dispatch, fn, input, start),
      );
      if (!(out instanceof Promise)) return out;
      return out.catch((error: unknown) => this.end(dispatch, start, 0, 'failed', failure(error)));
    } catch (error) {
      return this.end(dispatch, start, 0, 'failed', failure(error));
    }
  }

  private runKernel(dispatch: Dispatch, name: KernelName, start: number): QuantumReport {
    const { work, quantumNanos } = dispatch;
    const remaining = Math.max(0, work.totalNanos - dispatch.doneNanos);
    const call =
      work.perCallNanos === undefined ? remaining : Math.min(remaining, work.perCallNanos);
    if (name === 'sleep') {
      // I/O-like: nothing to compute; the split waits elsewhere and its worker is free at once.
      if (remaining === 0) return this.end(dispatch, start, 0, 'finished');
      return this.end(dispatch, start, call, 'blocked', { blockedNanos: call });
    }
    const kernel = CPU_KERNELS[name];
    if (kernel === undefined) throw new Error(`no kernel named ${String(name)}`);
    const meter = this.meter(name);
    // With perCallNanos the call is atomic (it may overrun, and no cut shortens it); otherwise
    // the quantum bounds it, or a cut of it (control.ts) that arrives while it runs.
    const bounded = work.perCallNanos === undefined;
    const bound = bounded ? quantumNanos : Infinity;
    let done = 0;
    let now = start;
    while (done < call && now - start < bound) {
      if (isCancelRequested(this.control, dispatch.splitId)) {
        meter.retune();
        return this.end(dispatch, start, Math.min(done, call), 'cancelled');
      }
      if (bounded && now - start >= quantumCut(this.control, dispatch.splitId)) break;
      const unitStart = now;
      this.observed ^= kernel.unit(meter.size);
      now = this.clock();
      done += meter.credit(now - unitStart);
    }
    meter.retune();
    const workNanos = Math.min(done, call);
    if (workNanos >= remaining) return this.end(dispatch, start, remaining, 'finished');
    if (work.blockedNanosPerCall !== undefined) {
      return this.end(dispatch, start, workNanos, 'blocked', {
        blockedNanos: work.blockedNanosPerCall,
      });
    }
    return this.end(dispatch, start, workNanos, 'yielded');
  }

  private meter(name: Exclude<KernelName, 'sleep'>): UnitMeter {
    let meter = this.meters.get(name);
    if (meter === undefined) {
      const kernel = CPU_KERNELS[name];
      meter = new UnitMeter(
        kernel,
        name === 'matmul' ? 3 : 1,
        this.calibration.sizes[name] ?? kernel.initialSize,
        this.calibration.unitNanos[name] ?? 0,
      );
      this.meters.set(name, meter);
    }
    return meter;
  }

  /**
   * An uncaught error from split `splitId`'s own callbacks: fails its quantum if it is the one
   * running here now (awaiting), and says whether it was.
   */
  failRunning(splitId: number, error: unknown): boolean {
    if (this.running?.splitId !== splitId) return false;
    this.running.fail(new Error(`uncaught, from a callback of its own: ${reason(error)}`));
    return true;
  }

  /** A module's first quantum on this worker: loads it (failing on its own uncaught errors). */
  private async loadThenCall(
    dispatch: Dispatch,
    ref: ModuleRef,
    input: unknown,
    start: number,
  ): Promise<QuantumReport> {
    const watch = this.watch(dispatch.splitId);
    let fn: UserFunction;
    try {
      fn = await Promise.race([loadUserFunction(ref), watch.failed]);
    } finally {
      this.running = null;
    }
    return await this.callLoaded(dispatch, fn, input, start);
  }

  private callLoaded(
    dispatch: Dispatch,
    fn: UserFunction,
    input: unknown,
    start: number,
  ): QuantumReport | Promise<QuantumReport> {
    const ctx = new QuantumContext(dispatch, this.clock(), this.clock, this.control, this.suspends);
    const value = fn(input, ctx);
    if (isThenable(value)) return this.awaitModule(dispatch, value, ctx, start);
    return this.moduleEnd(dispatch, start, value, ctx);
  }

  /** An async module function: awaited, its signal polled, failed by its own uncaught errors. */
  private async awaitModule(
    dispatch: Dispatch,
    pending: PromiseLike<unknown>,
    ctx: QuantumContext,
    start: number,
  ): Promise<QuantumReport> {
    const watch = this.watch(dispatch.splitId);
    const poll = setInterval(() => ctx.cancelled(), CANCEL_POLL_MS);
    try {
      const value = await Promise.race([pending, watch.failed, ctx.whenParked()]);
      if (value !== PARKED) return this.moduleEnd(dispatch, start, value, ctx);
      // Parked in `await ctx.yield()`: the quantum ends as a yield; the call waits here.
      if (ctx.cancelled()) {
        ctx.drop();
        return this.end(dispatch, start, this.clock() - start, 'cancelled');
      }
      this.suspended.set(dispatch.splitId, { pending, ctx });
      return this.end(dispatch, start, this.clock() - start, 'yielded', { suspended: true });
    } finally {
      clearInterval(poll);
      this.running = null;
    }
  }

  /** Marks split `splitId`'s quantum as running here: `failRunning` rejects `failed`. */
  private watch(splitId: number): { failed: Promise<never> } {
    let fail!: (error: unknown) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => {}); // raced by the caller; only a race may observe it
    this.running = { splitId, fail };
    return { failed };
  }

  private moduleEnd(
    dispatch: Dispatch,
    start: number,
    value: unknown,
    ctx: QuantumContext,
  ): QuantumReport {
    const ran = this.clock() - start;
    if (isYield(value)) {
      if (ctx.cancelled()) return this.end(dispatch, start, ran, 'cancelled');
      // `{ yield: ctx.move(state) }` moves the state to the main thread (the wrapper's keys are
      // symbols: cloned as it is, it arrived as `{}` and every call started over).
      const { value: state, transfer } = unwrapMoved(value.yield);
      const report = this.end(dispatch, start, ran, 'yielded', { state });
      if (transfer !== undefined) this.moves.set(report, transfer);
      return report;
    }
    const { value: result, transfer } = unwrapMoved(value);
    const report = this.end(dispatch, start, ran, 'finished', { result });
    if (transfer !== undefined) this.moves.set(report, transfer);
    return report;
  }

  /** What a quantum's result or yielded state moves to the main thread (`ctx.move`), if anything. */
  transferOf(report: QuantumReport): Transferable[] | undefined {
    return this.moves.get(report);
  }

  private end(
    dispatch: Dispatch,
    start: number,
    workNanos: number,
    outcome: QuantumReport['outcome'],
    extra?: Partial<
      Pick<QuantumReport, 'blockedNanos' | 'error' | 'cause' | 'result' | 'state' | 'suspended'>
    >,
  ): QuantumReport {
    const endNanos = this.clock();
    const report: { -readonly [K in keyof QuantumReport]: QuantumReport[K] } = {
      splitId: dispatch.splitId,
      startNanos: start,
      endNanos,
      workNanos: Math.round(workNanos),
      outcome,
    };
    if (extra !== undefined) Object.assign(report, extra);
    // The CPU clock of a running thread lags by up to a scheduler tick (thread-cpu.ts), so a
    // quantum that follows busy work (a kernel's first, calibrated just before) could read more
    // CPU than wall time: clamped to what it cannot exceed.
    if (this.cpuStart >= 0)
      report.cpuNanos = Math.min(endNanos - start, Math.max(0, this.cpuClock!() - this.cpuStart));
    this.lastShort = endNanos - start < CPU_MEASURED_AFTER_NANOS;
    return report;
  }

  /** Continues a call suspended in `await ctx.yield()` for a new quantum. */
  private resume(dispatch: Dispatch, parked: Suspended, start: number): Promise<QuantumReport> {
    this.suspended.delete(dispatch.splitId);
    const { ctx, pending } = parked;
    const wake = ctx.restart(dispatch, start);
    const out = this.awaitModule(dispatch, pending, ctx, start);
    wake();
    return out.catch((error: unknown) => this.end(dispatch, start, 0, 'failed', failure(error)));
  }

  /**
   * Split `splitId` is cancelled while suspended here: its `await ctx.yield()` rejects (so its
   * `finally` blocks run) and the continuation is forgotten.
   */
  drop(splitId: number): void {
    const parked = this.suspended.get(splitId);
    if (parked === undefined) return;
    this.suspended.delete(splitId);
    parked.ctx.drop();
  }

  /** Exposes what the kernels computed, so no unit is dead code to the JIT. */
  get checksum(): number {
    return this.observed ^ sink;
  }
}

/** The scope of a module's code (`moduleScope`); its name is built only when an error needs it. */
class Scope implements ModuleScope {
  constructor(
    readonly splitId: number,
    private readonly ref: ModuleRef,
  ) {}
  get module(): string {
    return moduleName(this.ref);
  }
}

export function moduleName(ref: ModuleRef): string {
  return `${ref.module}#${ref.exportName ?? 'default'}`;
}

/**
 * What was thrown, in words. Never throws itself: it runs in the handlers that report a failure,
 * and a thrown value that cannot be made text (`Object.create(null)`, a `Symbol` name, a getter
 * that throws) used to throw there, so the quantum never reported and hung until the hard kill.
 */
export function reason(error: unknown): string {
  try {
    if (error instanceof Error)
      return `${clipped(String(error.name), 200)}: ${clipped(String(error.message), MAX_THROWN_MESSAGE)}`;
    const like = errorLike(error);
    if (like !== null) return `${like.name}: ${like.message}`;
    return String(error);
  } catch {
    return unreadable(error);
  }
}

/** A thrown value that cannot be read or made text, described by its kind alone. */
function unreadable(thrown: unknown): string {
  const kind = thrown === null ? 'null' : Array.isArray(thrown) ? 'array' : typeof thrown;
  return `a thrown ${kind} that cannot be made text`;
}

/**
 * How much of a thrown value's message is kept (it travels in every report, and into the run's
 * rejection): an `Error` with a 10 MB message rejected its run with all of it.
 */
const MAX_THROWN_MESSAGE = 2_000;
/** How much of a thrown `Error`'s stack is kept (it begins with the message). */
const MAX_THROWN_STACK = 8_000;

/** `text` cut to `max` characters, the last one `…` when something was cut. */
function clipped(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A thrown object that is not an `Error` but reads like one (`throw { message, code }`, an error
 * from another realm): its message, its name (or `Error`) and its code, so it is not reported as
 * `[object Object]`.
 */
function errorLike(thrown: unknown): ErrorCause | null {
  if (thrown === null || typeof thrown !== 'object') return null;
  const { name, message, code } = thrown as { name?: unknown; message?: unknown; code?: unknown };
  if (typeof message !== 'string') return null;
  const cause: { -readonly [K in keyof ErrorCause]: ErrorCause[K] } = {
    name: typeof name === 'string' && name.length > 0 ? name.slice(0, 200) : 'Error',
    message: message.slice(0, MAX_THROWN_MESSAGE),
  };
  if (typeof code === 'string' || typeof code === 'number') cause.code = code;
  return cause;
}

/**
 * A failed quantum's report fields: why, in words, and what was thrown when it was an `Error`
 * (or reads like one). Never throws (see `reason`): an error whose fields cannot be read is
 * reported by `reason` alone.
 */
function failure(error: unknown): { error: string; cause?: ErrorCause } {
  try {
    if (!(error instanceof Error)) {
      const like = errorLike(error);
      return like === null ? { error: reason(error) } : { error: reason(error), cause: like };
    }
    const cause: { -readonly [K in keyof ErrorCause]: ErrorCause[K] } = {
      name: clipped(String(error.name), 200),
      message: clipped(String(error.message), MAX_THROWN_MESSAGE),
    };
    const stack: unknown = error.stack;
    if (typeof stack === 'string') cause.stack = clipped(stack, MAX_THROWN_STACK);
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' || typeof code === 'number') cause.code = code;
    return { error: reason(error), cause };
  } catch {
    return { error: reason(error) };
  }
}
