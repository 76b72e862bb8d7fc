// Every preset of docs/design.md §5 runs as is on real threads (2 workers, scaled down where it would
// take long) and reports the issue-4 contract.
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, loadPreset } from '../../../core/workload/presets/index.ts';
import type { RunReport } from '../report.ts';
import { runWorkload } from '../run-workload.ts';

/** Per preset: the timeScale and duration (workload ms) that keep a run to a few hundred ms. */
const SHORT: Record<string, { timeScale?: number; durationMs?: number }> = {
  'interactive-vs-scan': { timeScale: 0.05, durationMs: 6000 },
  'batch-service': { timeScale: 0.02, durationMs: 20_000 },
  'noisy-tenants': { timeScale: 0.05, durationMs: 6000 },
  // Trino's ÷100 (1.2 s of wall time): on 2 workers the first round of leaf splits alone takes
  // tens of seconds, and l4_short starts at 60 s.
  'trino-overloaded': { durationMs: 200_000 },
  'trino-starve-slow': { durationMs: 200_000 },
  'trino-misbehaving-quanta': { durationMs: 120_000 },
  'trino-within-level-fairness': { durationMs: 120_000 },
};

/** Presets whose jobs complete within the short run. */
const JOBS_COMPLETE = new Set(['interactive-vs-scan', 'batch-service']);
/** Trino presets whose splits complete within it (their tasks, of 4–40 splits, take longer). */
const SPLITS_COMPLETE = new Set(['trino-overloaded', 'trino-starve-slow']);

const PERCENTILES = ['max', 'mean', 'p50', 'p95', 'p99'];

function expectContract(r: RunReport, name: string): void {
  expect(r).toMatchObject({ workload: name, backend: 'threads', seed: 1 });
  expect(r.config.workers).toBe(2);
  expect(r.makespanMs).toBeGreaterThan(0);
  expect(r.workers).toMatchObject({ count: 2 });
  expect(r.workers.utilization).toBeGreaterThan(0);
  expect(r.fairness.jain).toBeGreaterThan(0);
  expect(r.levels.length).toBeGreaterThan(0);
  for (const l of r.levels)
    expect(Object.keys(l)).toEqual(expect.arrayContaining(['level', 'scheduledMs', 'selections']));
  for (const c of Object.values(r.classes)) {
    for (const k of [
      'jobs',
      'succeeded',
      'failed',
      'cancelled',
      'rejected',
      'scheduledMs',
    ] as const)
      expect(typeof c[k]).toBe('number');
    expect(Object.keys(c.latencyMs).sort()).toEqual(PERCENTILES);
    // A graph run's graphs have no measured wait, and say so by its absence (not a 0).
    if (r.dags === undefined) expect(Object.keys(c.waitMs!).sort()).toEqual(PERCENTILES);
    else expect(c.waitMs).toBeUndefined();
  }
}

describe('every preset on the threads backend', () => {
  it('covers every shipped preset', () => {
    const graphs = PRESET_NAMES.filter((n) => loadPreset(n).graph !== undefined);
    expect([...Object.keys(SHORT), ...graphs].sort()).toEqual([...PRESET_NAMES].sort());
  });

  for (const name of PRESET_NAMES) {
    it(`${name}: runs, completes work and reports the contract`, { timeout: 30_000 }, async () => {
      const short = SHORT[name] ?? {};
      const w = { ...loadPreset(name), ...(short.timeScale ? { timeScale: short.timeScale } : {}) };
      const { report } = await runWorkload(w, {
        backend: 'threads',
        config: { workers: 2 },
        ...(short.durationMs ? { durationMs: short.durationMs } : {}),
      });
      expectContract(report, name);
      if (report.dag !== undefined || report.dags !== undefined) {
        // A graph run ends when every node has: nothing failed, the work was really done.
        expect(report.dag?.workMs ?? report.dags?.[0]?.workMs).toBeGreaterThan(0);
        for (const d of report.dags ?? []) expect(d.failed, d.name).toBe(0);
        return;
      }
      const classes = Object.entries(report.classes);
      expect(classes.length).toBeGreaterThan(0);
      // Work ran and was charged to classes. Which class a busy machine got to within the short
      // run varies, but a class whose jobs succeeded must have been charged time.
      expect(classes.reduce((sum, [, c]) => sum + c.scheduledMs, 0)).toBeGreaterThan(0);
      for (const [cls, c] of classes) {
        if (c.succeeded > 0) expect(c.scheduledMs, cls).toBeGreaterThan(0);
      }
      if (SPLITS_COMPLETE.has(name)) {
        // How many depends on how much CPU the machine spared the short run: at least one.
        expect(report.trino!.status.at(-1)!.splits.completed).toBeGreaterThan(0);
      }
      if (JOBS_COMPLETE.has(name)) {
        const succeeded = classes.reduce((n, [, c]) => n + c.succeeded, 0);
        expect(succeeded).toBeGreaterThan(0);
        expect(report.counters.quanta).toBeGreaterThanOrEqual(succeeded);
      }
    });
  }
});
