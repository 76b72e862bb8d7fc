/**
 * What the scheduler keeps beside a run with an abort signal or a timeout, until it ends: its
 * timer, and its place among the runs that share its signal. One listener per signal however many
 * runs share it — a service passes one shutdown or request signal to many runs, and a listener
 * each made Node warn (`MaxListenersExceededWarning`) past ten, and cost a closure each.
 */
import { reason } from '../runtime/threads/quantum-runner.ts';
import { SchedLabError } from '../../shared/errors.ts';

interface Watch {
  /** Why the scheduler cancelled it (abort, timeout), once it did. */
  reason: SchedLabError | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
}

interface SignalRuns {
  readonly ids: Set<number>;
  readonly onAbort: () => void;
}

export class RunWatches {
  private readonly runs = new Map<number, Watch>();
  private readonly bySignal = new Map<AbortSignal, SignalRuns>();

  /**
   * `cancel(id, why)` cancels run `id` in the executor (its row says `why`); its end then reads
   * the reason by `end`.
   */
  constructor(private readonly cancel: (id: number, why: SchedLabError) => void) {}

  get size(): number {
    return this.runs.size;
  }

  /** Watches run `id`: an abort of `signal` or `timeoutMs` passing cancels it. */
  watch(id: number, signal: AbortSignal | undefined, timeoutMs: number | undefined): void {
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            const why = `the run did not end within timeoutMs ${timeoutMs}`;
            this.stop(id, new SchedLabError('TIMEOUT', why, 'timeoutMs'));
          }, timeoutMs);
    this.runs.set(id, { reason: undefined, signal, timer });
    if (signal === undefined) return;
    let shared = this.bySignal.get(signal);
    if (shared === undefined) {
      const ids = new Set<number>();
      const onAbort = () => {
        const reason = aborted(signal);
        for (const each of [...ids]) this.stop(each, reason);
      };
      shared = { ids, onAbort };
      this.bySignal.set(signal, shared);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    shared.ids.add(id);
  }

  /** Run `id` ended: forgets it, and says why the scheduler cancelled it, if it did. */
  end(id: number): SchedLabError | undefined {
    const watch = this.runs.get(id);
    if (watch === undefined) return undefined;
    this.runs.delete(id);
    if (watch.timer !== undefined) clearTimeout(watch.timer);
    const { signal } = watch;
    const shared = signal === undefined ? undefined : this.bySignal.get(signal);
    if (shared !== undefined) {
      shared.ids.delete(id);
      if (shared.ids.size === 0) {
        this.bySignal.delete(signal!);
        signal!.removeEventListener('abort', shared.onAbort);
      }
    }
    return watch.reason;
  }

  private stop(id: number, reason: SchedLabError): void {
    const watch = this.runs.get(id);
    if (watch === undefined || watch.reason !== undefined) return;
    watch.reason = reason;
    this.cancel(id, reason);
  }
}

export function aborted(signal: AbortSignal): SchedLabError {
  const error = new SchedLabError(
    'CANCELLED',
    // Any value may be a reason; one that cannot be made text (`Object.create(null)`) threw here,
    // in the abort listener, and ended the service's process.
    `the run was aborted: ${reason(signal.reason)}`,
    'signal',
  );
  error.cause = signal.reason;
  return error;
}
