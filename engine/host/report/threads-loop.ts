/** The wall-clock loop of a headless run on the threads backend (run-workload.ts). */
import type { Backend } from '../../runtime/backend.ts';

/**
 * The threads run's wall-clock loop: ends at backend time `stopAt` (a timer at that exact time)
 * or once `done()`, and resolves with the backend time it ended at; builds each status line on its own timer, so each line has its own counters;
 * reads the span ring every 50 ms (it holds far more than 50 ms of quanta).
 */
export function runOnThreads(
  backend: Backend,
  stopAt: number,
  statusPeriod: number | null,
  hooks: { observe: () => void; done: () => boolean; status: () => void },
): Promise<number> {
  return new Promise<number>((resolve) => {
    let cancelStop: (() => void) | null = null;
    let cancelStatus: (() => void) | null = null;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const at = backend.now();
      clearInterval(poll);
      cancelStop?.();
      cancelStatus?.();
      hooks.observe();
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
        hooks.status();
        at += statusPeriod;
        cancelStatus = at <= stopAt ? backend.setTimer(at, next) : null;
      };
      cancelStatus = backend.setTimer(at, next);
    }
  });
}
