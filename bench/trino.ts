// Trino's overloaded-cluster experiment (../shared/trino-simulator.md: 30 s, then 20 × (clear
// pending queue, 1 min) = 20.5 simulated minutes, 36 runners) on the deterministic simulator.
// Trino runs it on the real clock (~20 min); the bar is ≥ 100× faster than real time.
import { loadPreset } from '../engine/core/workload/presets/index.ts';
import { runWorkload } from '../engine/host/report/run-workload.ts';
import type { BenchReport } from './report.ts';

export async function run(report: BenchReport): Promise<void> {
  const workload = loadPreset('trino-overloaded');
  const simulatedS = (workload.durationMs ?? 0) / 1000;
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  const { report: r } = await runWorkload(workload);
  const wallS = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpu0);
  // On a shared machine wall time includes other processes' turns; CPU time is this run's own.
  const cpuS = (cpu.user + cpu.system) / 1e6;
  // Higher is better; baseline = the bar (100× real time).
  report.add('trino.sim_speedup', simulatedS / wallS, 'x', 100);
  // Lower is better; baseline = the wall time the bar allows (simulated time / 100).
  report.add('trino.wall_s', wallS, 's', simulatedS / 100);
  report.add('trino.sim_speedup_cpu', simulatedS / cpuS, 'x', 100);
  report.add('trino.quanta_per_s', r.counters.quanta / wallS, 'quanta/s', 1_000_000);
  const done = r.trino?.completedTasks ?? 0;
  console.log(
    `  ${r.counters.quanta.toLocaleString('en-US')} quanta, ${done} tasks completed in ${simulatedS} simulated s`,
  );
}
