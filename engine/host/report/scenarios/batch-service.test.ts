// Scenario: the PRIO queue with aging on a briefly overloaded batch service (simulator, seeded).
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../../core/workload/presets/index.ts';
import { runWorkload } from '../run-workload.ts';

const workload = loadPreset('batch-service');
const cfg = workload.config as Record<string, number>;

/**
 * What aging promises a priority-100 task (docs/design.md §3.2): effective = base − min(cap,
 * floor((wait − after) / step)). With cap 100 its effective priority is 0 — the most urgent value —
 * once it has waited after + 100·step, noticed at the next aging tick (≤ one interval later). From
 * then on only tasks queued before it can precede it (ties go FIFO by sequence; later arrivals all
 * have higher sequences), and by then the older urgent tasks have aged ahead of it and been served,
 * so it waits at most for the quanta already running: one longest task (600 ms, a report).
 *   bound = 2 s + 100 × 100 ms + 50 ms + 600 ms = 12.65 s
 */
const AGING_BOUND_MS =
  cfg['agingAfterMs']! + 100 * cfg['agingStepMs']! + cfg['agingIntervalMs']! + 600;

describe('batch-service', () => {
  it(
    'priority-20 exports wait least and aging keeps clean-up within its promised bound',
    { timeout: 30_000 },
    async () => {
      const { report } = await runWorkload(workload);
      const c = report.classes;
      for (const name of ['export', 'report', 'thumbnail', 'log-cleanup'])
        expect(c[name]!.succeeded).toBe(c[name]!.jobs);
      const exportWait = c['export']!.waitMs!;
      for (const other of ['report', 'thumbnail', 'log-cleanup']) {
        expect(exportWait.mean).toBeLessThan(c[other]!.waitMs!.mean);
        expect(exportWait.p95).toBeLessThan(c[other]!.waitMs!.p95);
      }
      expect(AGING_BOUND_MS).toBe(12_650);
      expect(c['log-cleanup']!.waitMs!.max).toBeLessThanOrEqual(AGING_BOUND_MS);
    },
  );

  it(
    'with aging off the same run starves clean-up far beyond that bound',
    { timeout: 30_000 },
    async () => {
      const { report } = await runWorkload(workload, { config: { aging: false } });
      const cleanup = report.classes['log-cleanup']!;
      expect(cleanup.waitMs!.max).toBeGreaterThan(2 * AGING_BOUND_MS);
      // Starved until the urgent classes stop arriving (~40 s): the last to run is clean-up.
      expect(cleanup.latencyMs.max).toBeGreaterThan(report.classes['export']!.latencyMs.max * 10);
    },
  );
});
