// The config a run uses, and the level rule the reports share with the executor.
import { describe, expect, it } from 'vitest';
import { isSchedLabError } from '../../../shared/errors.ts';
import type { MultilevelSplitQueue } from '../../core/mlfq/multilevel-split-queue.ts';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { Executor } from '../../runtime/executor/executor.ts';
import { SimBackend } from '../../runtime/sim/sim-backend.ts';
import { levelFunction, resolveConfig, workloadPatch } from './resolve-config.ts';

const withScale = (timeScale: number) => ({ ...loadPreset('trino-overloaded'), timeScale });

describe('resolveConfig and timeScale', () => {
  it("derives the threads quantum, thresholds and cap from Trino's config × timeScale", () => {
    const sim = resolveConfig(withScale(0.01), 'sim');
    expect(sim.quantumMs).toBe(1000);
    expect(sim.workers).toBe(36);
    for (const [scale, q] of [
      [0.01, 10],
      [0.1, 100],
    ] as const) {
      const c = resolveConfig(withScale(scale), 'threads');
      expect(c.quantumMs).toBe(q);
      expect(c.levelThresholdsMs).toEqual([0, 1000, 10_000, 60_000, 300_000].map((t) => t * scale));
      expect(c.levelContributionCapMs).toBe(30_000 * scale);
      expect(c.workers).toBe(4); // the preset's threads override: not a time, not scaled
      expect(c.levelTimeMultiplier).toBe(2);
    }
  });

  it('reads caller overrides as workload time too', () => {
    expect(resolveConfig(withScale(0.1), 'threads', { quantumMs: 500 }).quantumMs).toBe(50);
    expect(resolveConfig(withScale(0.1), 'sim', { quantumMs: 500 }).quantumMs).toBe(500);
  });

  it('names timeScale when scaling pushes a setting out of its range', () => {
    try {
      resolveConfig(withScale(1e-6), 'threads');
      expect.unreachable();
    } catch (e) {
      expect(isSchedLabError(e) && e.code === 'INVALID_CONFIG' && e.field).toBe('timeScale');
      expect((e as Error).message).toMatch(/timeScale 0\.000001 leaves quantumMs/);
    }
  });

  it('checks the threads block on every backend, so a file fails alike wherever it runs', () => {
    const bad = { ...withScale(1), threads: { workers: 0 } };
    for (const backend of ['sim', 'threads'] as const) {
      expect(() => resolveConfig(bad, backend), backend).toThrow('threads.workers must be >= 1');
      expect(() => workloadPatch(bad, backend), backend).toThrow('threads.workers must be >= 1');
    }
    // Applied on threads only.
    expect(resolveConfig({ ...withScale(1), threads: { workers: 3 } }, 'sim').workers).toBe(36);
  });

  it('the live app checks a workload’s scaled patch the same way, before applying it', () => {
    expect(workloadPatch(withScale(0.1), 'threads')).toMatchObject({ quantumMs: 100 });
    expect(workloadPatch(withScale(0.1), 'sim')).toMatchObject({ quantumMs: 1000 });
    expect(() => workloadPatch(withScale(1e-6), 'threads')).toThrow(
      /timeScale 0\.000001 leaves quantumMs/,
    );
  });

  it("computes a task's level exactly as the executor's queue does, at every timeScale", () => {
    for (const scale of [0.01, 0.1, 0.37]) {
      const config = resolveConfig(withScale(scale), 'threads');
      const executor = new Executor(new SimBackend({ workers: 4, seed: 1 }), config);
      const queue = executor.policy as unknown as MultilevelSplitQueue;
      const levelOf = levelFunction(config);
      const probes = config.levelThresholdsMs.flatMap((t) => {
        const ns = queue.levelThresholdsNanos[config.levelThresholdsMs.indexOf(t)]!;
        return [ns - 1, ns, ns + 1, t * 1e6];
      });
      for (const ns of probes)
        expect(levelOf(ns), `${ns} ns at ${scale}`).toBe(queue.computeLevel(ns));
      expect(levelOf(60_000 * 1e6 * scale)).toBe(3);
    }
  });
});
