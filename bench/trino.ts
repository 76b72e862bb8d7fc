// Trino's overloaded-cluster experiment (docs/design.md §9: 30 s, then 20 × (clear
// pending queue, 1 min) = 20.5 simulated minutes, 36 runners) on the deterministic simulator.
// Trino runs it on the real clock (~20 min); the bar is ≥ 100× faster than real time.
// Two runs, the faster kept: another process on the shared cores only ever slows a run down, so
// the faster run is the closer to the simulator's own speed (both runs are the same run, seeded).
import { loadPreset } from '../engine/core/workload/presets/index.ts';
import { runWorkload } from '../engine/host/report/run-workload.ts';
import type { BenchReport } from './report.ts';

const RUNS = 2;

async function once(): Promise<{ wallS: number; cpuS: number; quanta: number; tasks: number }> {
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const { report: r } = await runWorkload(loadPreset('trino-overloaded'));
  const wallS = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // On a shared machine wall time includes other processes' turns; CPU time is this run's own.
  const cpuS = (cpu.user + cpu.system) / 1e6;
  return { wallS, cpuS, quanta: r.counters.quanta, tasks: r.trino?.completedTasks ?? 0 };
}

export async function run(report: BenchReport): Promise<void> {
  const simulatedS = (loadPreset('trino-overloaded').durationMs ?? 0) / 1000;
  let best = await once();
  for (let i = 1; i < RUNS; i++) {
    const next = await once();
    if (next.wallS < best.wallS) best = next;
  }
  // Higher is better; baseline = the bar (100× real time).
  report.add('trino.sim_speedup', simulatedS / best.wallS, 'x', 100);
  // Lower is better; baseline = the wall time the bar allows (simulated time / 100).
  report.add('trino.wall_s', best.wallS, 's', simulatedS / 100);
  report.add('trino.sim_speedup_cpu', simulatedS / best.cpuS, 'x', 100);
  report.add('trino.quanta_per_s', best.quanta / best.wallS, 'quanta/s', 1_000_000);
  console.log(
    `  ${best.quanta.toLocaleString('en-US')} quanta, ${best.tasks} tasks completed in ${simulatedS} simulated s`,
  );
}
