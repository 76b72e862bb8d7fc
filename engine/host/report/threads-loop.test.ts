// The threads run loop's end on a loaded machine, where timers fire late: the run ends at its
// duration, and the status line due at the duration's end is added once, whichever timer fires
// first (it came and went with the race between the stop timer and the status timer).
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../runtime/backend.ts';
import { runOnThreads } from './threads-loop.ts';

/** A backend reduced to a clock and timers that fire only when the test says. */
function lateBackend() {
  let now = 0;
  let timers: { at: number; fn: () => void }[] = [];
  const backend = {
    now: () => now,
    setTimer(at: number, fn: () => void) {
      const t = { at, fn };
      timers.push(t);
      return () => (timers = timers.filter((x) => x !== t));
    },
  } as unknown as Backend;
  /** Moves the clock to `to` and fires the due timers in `order` (their due times' order unless given). */
  const fire = (to: number, order: (a: number, b: number) => number = (a, b) => a - b) => {
    now = to;
    for (;;) {
      const due = timers.filter((t) => t.at <= now).sort((a, b) => order(a.at, b.at));
      if (due.length === 0) return;
      timers = timers.filter((t) => t !== due[0]);
      due[0]!.fn();
    }
  };
  return { backend, fire };
}

const STOP = 1000;
const PERIOD = 100;

function run(backend: Backend) {
  const lines: number[] = [];
  let next = 0;
  const ended = runOnThreads(backend, STOP, PERIOD, {
    observe: () => {},
    done: () => false,
    // As run-workload's addStatusLines: every line due by `now`, each once.
    status: (now) => {
      for (; next <= now; next += PERIOD) lines.push(next);
    },
  });
  return { lines, ended };
}

describe('the threads run loop at its end', () => {
  it('fired 250 ms late, the stop ends the run at its duration, with the last status line', async () => {
    const { backend, fire } = lateBackend();
    const { lines, ended } = run(backend);
    fire(900);
    // Both timers late; the stop's fires first.
    fire(STOP + 250, (a, b) => b - a);
    expect(await ended).toBe(STOP);
    expect(lines).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  });

  it('a late status timer adds no line past the duration', async () => {
    const { backend, fire } = lateBackend();
    const { lines, ended } = run(backend);
    fire(STOP + 250);
    expect(await ended).toBe(STOP);
    expect(lines.at(-1)).toBe(STOP);
    expect(new Set(lines).size).toBe(lines.length);
  });
});
