// Once a run has ended and its caller let go of its result, the scheduler keeps neither that
// result nor the run's input, under every policy. They used to live on: in stale entries of the
// policy's queue (MLFQ's taken tail slots, the idle nodes FIFO and fair keep for a split's
// return), through the job record's hold on the run's promise; in a job row's clipped result
// text, a view of the whole JSON; in the threads backend's reused end and its last extras array.
// A service that returned 1 MB per run from a burst of 1,000 held 1.2 GB after it.
import { afterEach, describe, expect, it } from 'vitest';
import { forceGc } from '../../bench/gc.ts';
import { POLICY_NAMES } from '../../shared/config.ts';
import { Scheduler } from './scheduler.ts';

const TASKS = new URL('./fixtures/tasks.mjs', import.meta.url);
const RUNS = 40;
const MB = 2 ** 20;
/** What the runs' values come to: 40 MB, each value 1 MB and its own. */
const VALUE_CHARS = MB;
/** Left after the runs, for everything else (code warmed up, rings filled, the collector's slack). */
const SLACK_MB = 12;

function heapMb(): number {
  forceGc();
  forceGc();
  return process.memoryUsage().heapUsed / MB;
}

let s: Scheduler | null = null;
afterEach(async () => {
  await s?.close();
  s = null;
});

describe('what an ended run leaves behind', () => {
  for (const policy of POLICY_NAMES) {
    it(`${policy}: neither its result, nor its input, nor a queued run's that was cancelled`, async () => {
      s = new Scheduler({ workers: 2, policy, quantumMs: 5 });
      const sched = s;
      // Warm: every path below has run once, so what it allocates for good is in the baseline.
      await sched.run({ module: TASKS, export: 'text' }, 300);
      await sched.run({ module: TASKS, export: 'size' }, 'x'.repeat(300));
      const before = heapMb();

      // Only their lengths are kept: the results themselves are let go of at once.
      const lengths = (
        await Promise.all(
          Array.from({ length: RUNS }, () =>
            sched.run<string>({ module: TASKS, export: 'text' }, VALUE_CHARS),
          ),
        )
      ).map((r) => r.length);
      expect(lengths).toEqual(Array.from({ length: RUNS }, () => VALUE_CHARS));

      const sizes = await Promise.all(
        Array.from({ length: RUNS }, (_, i) =>
          sched.run({ module: TASKS, export: 'size' }, `${i}`.padEnd(VALUE_CHARS, 'i')),
        ),
      );
      expect(sizes).toEqual(Array.from({ length: RUNS }, () => VALUE_CHARS));

      // Queued behind two runs that never end, then cancelled.
      const stop = new AbortController();
      const busy = [0, 1].map(() =>
        sched.run({ module: TASKS, export: 'forever' }, 0, { signal: stop.signal }).catch(() => 0),
      );
      const cancel = new AbortController();
      const queued = Array.from({ length: RUNS }, (_, i) =>
        sched
          .run({ module: TASKS, export: 'size' }, `${i}`.padEnd(VALUE_CHARS, 'q'), {
            signal: cancel.signal,
          })
          .catch((e: { code?: string }) => e.code),
      );
      cancel.abort();
      expect(new Set(await Promise.all(queued))).toEqual(new Set(['CANCELLED']));
      stop.abort();
      await Promise.all(busy);
      expect(sched.stats().runs).toMatchObject({ queued: 0, running: 0 });

      const grown = heapMb() - before;
      expect(grown, `${grown.toFixed(1)} MB kept after ${3 * RUNS} MB of values`).toBeLessThan(
        SLACK_MB,
      );
    });
  }
});
