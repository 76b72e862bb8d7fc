import { describe, expect, it } from 'vitest';
import { parseWorkload, type TrinoSimulation } from '../../../shared/workload.ts';
import { createRng } from '../../../shared/lib/rng.ts';
import { Executor } from '../executor/executor.ts';
import type { SplitSpec } from '../executor/job-spec.ts';
import { SimBackend } from '../sim/sim-backend.ts';
import { TrinoController, type TrinoTask } from './trino-controller.ts';

const S = 1e9;

function rig(trino: unknown, config: Record<string, unknown> = {}) {
  const w = parseWorkload({ durationMs: 1e6, trino });
  const sim = new SimBackend({ workers: 4, seed: 1 });
  const ex = new Executor(sim, { workers: 4, ...config });
  const added: { taskId: number; splits: readonly SplitSpec[]; at: number }[] = [];
  const addSplits = ex.addSplits.bind(ex);
  ex.addSplits = (taskId, splits) => {
    added.push({ taskId, splits, at: sim.now() });
    return addSplits(taskId, splits);
  };
  const done: TrinoTask[] = [];
  const ctl = new TrinoController(ex, w.trino as TrinoSimulation, createRng(1), {
    originNanos: 0,
    scale: 1,
    onTaskDone: (t) => done.push(t),
  });
  return { sim, ex, ctl, added, done };
}

const spec = (over: Record<string, unknown>) => ({
  name: 'x',
  type: 'leaf',
  concurrentTasks: 2,
  splitsPerTask: 10,
  generator: { simple: { totalMs: 2000, perCallMs: 1000 } },
  ...over,
});

describe("Trino's SimulationController", () => {
  it(
    'a LEAF task never has more than 3 splits outstanding; completed tasks are replaced',
    { timeout: 20_000 },
    () => {
      const { sim, ex, ctl, added, done } = rig({
        specs: [spec({})],
        timeline: [{ atMs: 0, action: 'enable', spec: 'x' }],
      });
      ctl.start();
      const outstanding = new Map<number, number>();
      ex.onSplitEnd((e) => outstanding.set(e.taskId, (outstanding.get(e.taskId) ?? 0) - 1));
      let worst = 0;
      for (let t = 0; t <= 60 * S; t += 0.25 * S) {
        sim.runUntil(t);
        for (const a of added.splice(0))
          outstanding.set(a.taskId, (outstanding.get(a.taskId) ?? 0) + a.splits.length);
        for (const n of outstanding.values()) worst = Math.max(worst, n);
      }
      expect(worst).toBe(3);
      expect(done.length).toBeGreaterThanOrEqual(4);
      expect(done.every((t) => t.completed === 10)).toBe(true);
      expect(ctl.stats()[0]).toMatchObject({ name: 'x', running: 2 });
      ctl.stop();
    },
  );

  it(
    'an INTERMEDIATE task enqueues all its splits at once, all from one specification',
    { timeout: 20_000 },
    () => {
      const { sim, ctl, added } = rig({
        specs: [
          spec({
            type: 'intermediate',
            concurrentTasks: 1,
            splitsPerTask: 8,
            generator: 'intermediate',
          }),
        ],
        timeline: [{ atMs: 0, action: 'enable', spec: 'x' }],
      });
      ctl.start();
      sim.runUntil(0);
      expect(added).toHaveLength(1);
      const [first] = added;
      expect(first!.splits).toHaveLength(8);
      expect(new Set(first!.splits.map((s) => JSON.stringify(s.work))).size).toBe(1);
      expect(first!.splits.every((s) => s.kind === 'intermediate')).toBe(true);
      ctl.stop();
    },
  );

  it(
    'a spec with a task total stops creating tasks once it has created that many',
    { timeout: 20_000 },
    () => {
      const { sim, ctl, done } = rig({
        specs: [
          spec({
            totalTasks: 3,
            concurrentTasks: 2,
            splitsPerTask: 2,
            generator: { simple: { totalMs: 500, perCallMs: 500 } },
          }),
        ],
        timeline: [{ atMs: 0, action: 'enable', spec: 'x' }],
      });
      ctl.start();
      sim.runUntil(30 * S);
      expect(ctl.stats()[0]).toMatchObject({ created: 3, completed: 3, running: 0 });
      expect(done).toHaveLength(3);
      ctl.stop();
    },
  );

  it(
    '"clear pending queue" pauses top-ups until waiting ≤ intermediate − blocked',
    { timeout: 20_000 },
    () => {
      // One worker, 2 tasks × 3 outstanding leaves of 200 ms: without the pause the controller tops
      // up every 500 ms; with it (no intermediates, none blocked) it waits for an empty queue.
      const { sim, ex, ctl, added } = rig(
        {
          specs: [
            spec({ splitsPerTask: 100, generator: { simple: { totalMs: 200, perCallMs: 200 } } }),
          ],
          timeline: [
            { atMs: 0, action: 'enable', spec: 'x' },
            { atMs: 1100, action: 'clear' },
          ],
        },
        { workers: 1 },
      );
      ctl.start();
      sim.runUntil(1.2 * S);
      expect(ctl.clearingPendingQueue).toBe(true);
      const before = added.length;
      sim.runUntil(1.75 * S);
      expect(added.length).toBe(before);
      expect(ex.counters.splitsQueued).toBeGreaterThan(0);
      sim.runUntil(2.6 * S);
      expect(ctl.clearingPendingQueue).toBe(false);
      expect(added.length).toBeGreaterThan(before);
      expect(ex.events.since(0).some((e) => e.detail === 'cleared pending queue')).toBe(true);
      ctl.stop();
    },
  );

  it(
    'a task whose job is cancelled from outside is replaced, and the controller keeps going',
    { timeout: 20_000 },
    () => {
      const { sim, ex, ctl } = rig({
        specs: [
          spec({
            type: 'intermediate',
            concurrentTasks: 1,
            splitsPerTask: 4,
            generator: 'intermediate',
          }),
        ],
        timeline: [{ atMs: 0, action: 'enable', spec: 'x' }],
      });
      ctl.start();
      sim.runUntil(0.2 * S);
      const [victim] = ctl.runningTasks();
      expect(ex.cancelJob(victim!.jobId)).toBe(true);
      sim.runUntil(5 * S);
      expect(ctl.liveIntermediateSplits).toBeGreaterThanOrEqual(0);
      const [next] = ctl.runningTasks();
      expect(next!.jobId).not.toBe(victim!.jobId);
      expect(ctl.stats()[0]).toMatchObject({ created: 2, completed: 1, running: 1 });
      ctl.stop();
    },
  );

  it(
    'holds one pending tick however long it runs (no timer per tick kept)',
    { timeout: 20_000 },
    () => {
      const { sim, ctl } = rig({
        specs: [spec({ generator: { simple: { totalMs: 100, perCallMs: 100 } } })],
        timeline: [{ atMs: 0, action: 'enable', spec: 'x' }],
      });
      ctl.start();
      sim.runUntil(600 * S); // 1200 ticks
      const held = ctl as unknown as { timers: unknown[] };
      expect(held.timers.length).toBeLessThanOrEqual(1);
      ctl.stop();
    },
  );
});
