// `serve --backend sim --speed max` (issue 11): how fast the live session runs the sim while its
// frames still flow, next to the same preset run headless (`schedlab run`, no frames) in the same
// process. Figures are simulated time per second of this process's CPU time (on a shared machine
// wall time counts the waits for a core; CPU time is the run's own), and simulated ÷ wall.
// `live.max_vs_headless_cpu`: baseline = the headless run's simulated time per CPU second; the
// ratio is the share of the sim's own speed the live loop keeps (1 = frames cost nothing).
// Each frame is serialized once, as the browser-mode server does for its clients.
import { loadPreset } from '../engine/core/workload/presets/index.ts';
import { runWorkload } from '../engine/host/report/run-workload.ts';
import { startLiveSession } from '../engine/host/server/live-session.ts';
import type { BenchReport } from './report.ts';

const PRESET = 'trino-overloaded';
const LIVE_MS = 6_000;
const HEADLESS_MS = 120_000;

function cpuSeconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
}

async function headless(): Promise<{ simPerCpuS: number; simPerWallS: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  await runWorkload(loadPreset(PRESET), { backend: 'sim', seed: 1, durationMs: HEADLESS_MS });
  const wallS = (performance.now() - start) / 1000;
  return {
    simPerCpuS: HEADLESS_MS / 1000 / cpuSeconds(cpu),
    simPerWallS: HEADLESS_MS / 1000 / wallS,
  };
}

async function live(): Promise<{ simPerCpuS: number; simPerWallS: number; fps: number }> {
  const session = await startLiveSession({ backend: 'sim', speed: 'max', seed: 1, preset: PRESET });
  let frames = 0;
  let bytes = 0;
  session.onFrame((f) => {
    frames++;
    bytes += JSON.stringify(f).length;
  });
  const t0 = session.session.executor.now();
  const start = performance.now();
  const cpu = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, LIVE_MS));
  const simS = (session.session.executor.now() - t0) / 1e9;
  const wallS = (performance.now() - start) / 1000;
  const cpuS = cpuSeconds(cpu);
  await session.close();
  console.log(`  ${frames} frames, ${(bytes / 1e6).toFixed(1)} MB of frame JSON`);
  return { simPerCpuS: simS / cpuS, simPerWallS: simS / wallS, fps: frames / wallS };
}

export async function run(report: BenchReport): Promise<void> {
  const h = await headless();
  const l = await live();
  // Higher is better.
  report.add('live.max_vs_headless_cpu', l.simPerCpuS, 'x', h.simPerCpuS);
  report.add('live.max_sim_over_wall', l.simPerWallS, 'x', h.simPerWallS);
  // Frames per wall second at max; baseline = the session's frame rate (10 Hz).
  report.add('live.max_frames_per_s', l.fps, 'Hz', 10);
}
