// The benchmark suites by name (bench/index.ts runs them; `schedlab bench` checks names first).
import type { BenchReport } from './report.ts';

export type BenchModule = { run(report: BenchReport): Promise<void> };

export const SUITES: Record<string, () => Promise<BenchModule>> = {
  pool: () => import('./pool.ts'),
  renderer: () => import('./renderer.ts'),
  'priority-queue': () => import('./priority-queue.ts'),
  dag: () => import('./dag.ts'),
  mlfq: () => import('./mlfq.ts'),
  sim: () => import('./sim.ts'),
  trino: () => import('./trino.ts'),
  memory: () => import('./memory.ts'),
  telemetry: () => import('./telemetry.ts'),
};

export const SUITE_NAMES: readonly string[] = Object.keys(SUITES);
