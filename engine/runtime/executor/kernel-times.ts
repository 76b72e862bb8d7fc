/**
 * How long a kernel's quanta run lately (ns), for the executor's queued batches
 * (`ExecutorOptions.pipeline`): a split of a kernel whose quanta are short may be queued behind
 * others on a busy worker as long as their expected time stays within one quantum. A quantum
 * that used its whole quantum (long work) sets the figure at once, so one such run stops the
 * batching of its kernel; a shorter one moves it an eighth of the way, so a quantum stretched
 * by the thread being descheduled on a busy machine does not.
 * A kernel is a built-in's name or a module ref object (weakly held: bounded by live refs).
 */
import type { SplitWork } from '../backend.ts';

type Kernel = SplitWork['kernel'];

export class KernelTimes {
  private readonly byName = new Map<string, number>();
  private readonly byRef = new WeakMap<object, number>();

  /** The kernel's recent quantum time, or undefined when none of its quanta has ended. */
  get(kernel: Kernel): number | undefined {
    return typeof kernel === 'string' ? this.byName.get(kernel) : this.byRef.get(kernel);
  }

  /** A quantum of `kernel` ran `ranNanos`, of a quantum of `quantumNanos`. */
  note(kernel: Kernel, ranNanos: number, quantumNanos: number): void {
    const prev = this.get(kernel);
    const next =
      prev === undefined || ranNanos >= quantumNanos ? ranNanos : prev + (ranNanos - prev) / 8;
    if (typeof kernel === 'string') this.byName.set(kernel, next);
    else this.byRef.set(kernel, next);
  }
}
