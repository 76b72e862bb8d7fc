/**
 * Runs one dispatch inside a worker (backend.ts header has the semantics): a built-in kernel in
 * calibrated units until the quantum, the call or the work is used up, or a user module's function
 * with a `shouldYield` context. Measures wall time; never throws (a failure is an outcome).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Dispatch, KernelName, ModuleRef } from '../backend.ts';
import { isCancelRequested, quantumCut } from './control.ts';
import { CPU_KERNELS, sink, type Calibration } from './kernels.ts';
import type { QuantumReport } from './protocol.ts';
import { UnitMeter } from './unit-meter.ts';
import { isThenable, isYield, loadUserFunction, type TaskContext } from './user-module.ts';

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

export class QuantumRunner {
  private observed = 0;
  private readonly meters = new Map<string, UnitMeter>();
  /** The module quantum running now, and how to fail it from outside (`failRunning`). */
  private running: { readonly splitId: number; readonly fail: (error: unknown) => void } | null =
    null;

  /** This thread's CPU time when the running quantum started (`cpuClock`; 0 without one). */
  private cpuStart = 0;

  constructor(
    private readonly clock: () => number,
    private readonly control: Int32Array,
    private readonly calibration: Calibration,
    /** This thread's CPU time (thread-cpu.ts), or null where there is none: no `cpuNanos`. */
    private readonly cpuClock: (() => number) | null = null,
  ) {}

  async run(dispatch: Dispatch, input: unknown): Promise<QuantumReport> {
    if (this.cpuClock !== null) this.cpuStart = this.cpuClock();
    const start = this.clock();
    try {
      const { kernel } = dispatch.work;
      if (typeof kernel === 'string') return this.runKernel(dispatch, kernel, start);
      const scope = { splitId: dispatch.splitId, module: moduleName(kernel) };
      return await moduleScope.run(scope, () => this.runModule(dispatch, kernel, input, start));
    } catch (error) {
      return this.end(dispatch, start, 0, 'failed', { error: reason(error) });
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

  private async runModule(
    dispatch: Dispatch,
    ref: ModuleRef,
    input: unknown,
    start: number,
  ): Promise<QuantumReport> {
    let fail!: (error: unknown) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    failed.catch(() => {}); // raced below; only a race may observe it
    this.running = { splitId: dispatch.splitId, fail };
    try {
      return await this.callModule(dispatch, ref, input, start, failed);
    } finally {
      this.running = null;
    }
  }

  private async callModule(
    dispatch: Dispatch,
    ref: ModuleRef,
    input: unknown,
    start: number,
    failed: Promise<never>,
  ): Promise<QuantumReport> {
    const fn = await Promise.race([loadUserFunction(ref), failed]);
    const begun = this.clock();
    const aborter = new AbortController();
    const cancelled = (): boolean => {
      if (!aborter.signal.aborted && isCancelRequested(this.control, dispatch.splitId)) {
        aborter.abort(new Error('split cancelled'));
      }
      return aborter.signal.aborted;
    };
    const ctx: TaskContext = {
      shouldYield: () => {
        if (cancelled()) return true;
        const ran = this.clock() - begun;
        return ran >= dispatch.quantumNanos || ran >= quantumCut(this.control, dispatch.splitId);
      },
      signal: aborter.signal,
      quantumNanos: dispatch.quantumNanos,
    };
    let value = fn(input, ctx);
    if (isThenable(value)) {
      const poll = setInterval(cancelled, CANCEL_POLL_MS);
      try {
        value = await Promise.race([value, failed]);
      } finally {
        clearInterval(poll);
      }
    }
    const ran = this.clock() - start;
    if (isYield(value)) {
      return cancelled()
        ? this.end(dispatch, start, ran, 'cancelled')
        : this.end(dispatch, start, ran, 'yielded', { state: value.yield });
    }
    return this.end(dispatch, start, ran, 'finished', { result: value });
  }

  private end(
    dispatch: Dispatch,
    start: number,
    workNanos: number,
    outcome: QuantumReport['outcome'],
    extra: Partial<Pick<QuantumReport, 'blockedNanos' | 'error' | 'result' | 'state'>> = {},
  ): QuantumReport {
    const endNanos = this.clock();
    const report = {
      splitId: dispatch.splitId,
      startNanos: start,
      endNanos,
      workNanos: Math.round(workNanos),
      outcome,
      ...extra,
    };
    if (this.cpuClock === null) return report;
    return { ...report, cpuNanos: Math.max(0, this.cpuClock() - this.cpuStart) };
  }

  /** Exposes what the kernels computed, so no unit is dead code to the JIT. */
  get checksum(): number {
    return this.observed ^ sink;
  }
}

export function moduleName(ref: ModuleRef): string {
  return `${ref.module}#${ref.exportName ?? 'default'}`;
}

export function reason(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
