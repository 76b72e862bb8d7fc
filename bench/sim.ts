// Simulator speed (issue 3): simulated quanta per wall-clock second through the whole path —
// executor, policy, Trino admission, span ring and the sim's event heap — on a loaded 8-worker
// run. Baseline is the bar itself, 1M quanta/s, so ratio ≥ 1 means the bar is met.
import type { PolicyName } from '../shared/config.ts';
import { Executor } from '../engine/runtime/executor/index.ts';
import { SimBackend } from '../engine/runtime/sim/index.ts';
import type { BenchReport } from './report.ts';

const BAR = 1_000_000;
const MS = 1_000_000;

function simulate(policy: PolicyName): {
  quanta: number;
  seconds: number;
  simulatedSeconds: number;
} {
  const sim = new SimBackend({ workers: 8, seed: 1 });
  const ex = new Executor(sim, { workers: 8, quantumMs: 1, policy, maxQueued: 1_000_000 });
  const work = { kernel: 'spin' as const, totalNanos: 100 * MS };
  for (let j = 0; j < 200; j++) {
    const leaf = { kind: 'leaf' as const, work };
    const inter = { kind: 'intermediate' as const, work };
    ex.submitJob({
      class: j % 2 ? 'a' : 'b',
      tasks: [{ splits: Array(50).fill(leaf) }, { splits: Array(50).fill(inter) }],
    });
  }
  const start = performance.now();
  sim.runUntilIdle();
  const seconds = (performance.now() - start) / 1000;
  if (ex.counters.succeeded !== 200) throw new Error('sim bench: not every job succeeded');
  return { quanta: ex.counters.quanta, seconds, simulatedSeconds: sim.now() / 1e9 };
}

export async function run(report: BenchReport): Promise<void> {
  simulate('fifo'); // warm-up
  for (const policy of ['mlfq', 'fifo', 'fair', 'priority'] as const) {
    const r = simulate(policy);
    report.add(`sim.quanta_per_s.${policy}`, r.quanta / r.seconds, 'quanta/s', BAR);
    if (policy === 'mlfq') {
      report.add('sim.quanta_per_s', r.quanta / r.seconds, 'quanta/s', BAR);
      report.add('sim.simulated_over_wall', r.simulatedSeconds / r.seconds, 'x', 1);
    }
  }
}
