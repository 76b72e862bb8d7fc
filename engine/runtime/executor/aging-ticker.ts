/**
 * The aging timer (docs/design.md §4): under `priority`, waiting splits' effective priorities are
 * re-evaluated every `agingIntervalMs`, only while jobs are live, so the simulator can go idle.
 * Each tick ages the queue and dispatches what became ready.
 */
import type { Backend } from '../backend.ts';
import type { Knobs } from './knobs.ts';

export class AgingTicker {
  private cancel: (() => void) | null = null;
  /** The interval the pending tick was set with (ns). */
  private armedWith = 0;

  constructor(
    private readonly backend: Backend,
    private readonly knobs: Knobs,
    /** Live jobs counted (job-book.ts `counts.live`). */
    private readonly jobs: { readonly counts: { readonly live: number } },
    /** The dispatcher: closed stops the ticker; each tick pumps. */
    private readonly dispatcher: { readonly closed: boolean; pump(): void },
  ) {}

  /** Starts the timer when it is wanted and not running, stops it when no longer wanted. */
  ensure(): void {
    const wanted =
      this.knobs.queue.policy === 'priority' &&
      this.jobs.counts.live > 0 &&
      !this.dispatcher.closed;
    if (!wanted) {
      this.stop();
      return;
    }
    const interval = this.knobs.settings.agingIntervalNanos;
    if (this.cancel !== null) {
      // A new interval counts from now: an hour's tick set before the change to 50 ms would
      // have kept every split from aging for that hour.
      if (interval === this.armedWith) return;
      this.stop();
    }
    this.armedWith = interval;
    this.cancel = this.backend.setTimer(this.backend.now() + interval, () => {
      this.cancel = null;
      this.knobs.queue.tick(this.backend.now());
      this.dispatcher.pump();
      this.ensure();
    });
  }

  stop(): void {
    this.cancel?.();
    this.cancel = null;
  }
}
