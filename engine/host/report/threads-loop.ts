/** The wall-clock loop of a headless run on the threads backend (run-workload.ts). */
import type { Backend } from '../../runtime/backend.ts';

/**
 * The threads run's wall-clock loop: ends at backend time `stopAt` (a timer at that exact time)
 * or once `done()`, and resolves with the backend time it ended at; builds each status line on
 * its own timer, so each line has its own counters; reads the span ring every 50 ms (it holds far
 * more than 50 ms of quanta).
 *
 * On a loaded machine timers fire late (by 250 ms seen): the run still ends at `stopAt` (the
 * executor starts no quantum past it, `Executor.stopDispatchAt`), `status` is never asked for a
 * time past it, and at the end it is asked once more, so the line due at `stopAt` is there
 * whichever of the two timers fired first.
 */
export function runOnThreads(
  backend: Backend,
  stopAt: number,
  statusPeriod: number | null,
  hooks: { observe: () => void; done: () => boolean; status: (now: number) => void },
): Promise<number> {
  const now = () => Math.min(backend.now(), stopAt);
  return new Promise<number>((resolve) => {
    let cancelStop: (() => void) | null = null;
    let cancelStatus: (() => void) | null = null;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const at = now();
      clearInterval(poll);
      cancelStop?.();
      cancelStatus?.();
      hooks.observe();
      if (statusPeriod !== null) hooks.status(at);
      resolve(at);
    };
    const poll = setInterval(() => {
      hooks.observe();
      if (hooks.done()) end();
    }, 50);
    if (stopAt !== Infinity) cancelStop = backend.setTimer(stopAt, end);
    if (statusPeriod !== null) {
      let at = backend.now();
      const next = () => {
        hooks.status(now());
        at += statusPeriod;
        cancelStatus = at <= stopAt ? backend.setTimer(at, next) : null;
      };
      cancelStatus = backend.setTimer(at, next);
    }
  });
}
