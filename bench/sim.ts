// Simulator speed (issue 3): simulated quanta per wall-clock second through the whole path —
// executor, policy, Trino admission, span ring and the sim's event heap — on a loaded 8-worker
// run: 200 jobs × 2 tasks × 50 leaf splits of 100 quanta, admission keeping ~1.2k splits queued. `sim.quanta_per_s*`: baseline is the bar itself, 1M quanta/s (ratio ≥ 1 meets it).
// `sim.quanta_per_cpu_s.*`: the same, per second of this process's CPU time, against the same
// bar — on a machine shared with other work, wall time counts the waits for a core, CPU time not.
// `sim.vs_bare_loop.*`: baseline is a bare event-loop pass measured in the same run (the sim
// re-dispatching the same quanta with no executor and no policy), so the ratio — the fraction of
// the bare loop's speed the full path keeps — does not depend on how loaded the machine is.
import type { PolicyName } from '../shared/config.ts';
import { Executor } from '../engine/runtime/executor/index.ts';
import { SimBackend } from '../engine/runtime/sim/index.ts';
import type { BenchReport } from './report.ts';

const BAR = 1_000_000;
const MS = 1_000_000;

function simulate(policy: PolicyName): {
  quanta: number;
  seconds: number;
  cpuSeconds: number;
  simulatedSeconds: number;
} {
  const sim = new SimBackend({ workers: 8, seed: 1 });
  // PRIO is preemptive here so every policy runs the same 2M quanta.
  const ex = new Executor(sim, {
    workers: 8,
    quantumMs: 1,
    policy,
    preemptive: true,
    maxQueued: 1_000_000,
  });
  const work = { kernel: 'spin' as const, totalNanos: 100 * MS };
  for (let j = 0; j < 200; j++) {
    const leaf = { kind: 'leaf' as const, work };
    ex.submitJob({
      class: j % 2 ? 'a' : 'b',
      tasks: [{ splits: Array(50).fill(leaf) }, { splits: Array(50).fill(leaf) }],
    });
  }
  const start = performance.now();
  const cpu = process.cpuUsage();
  sim.runUntilIdle();
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  if (ex.counters.succeeded !== 200) throw new Error('sim bench: not every job succeeded');
  return { quanta: ex.counters.quanta, seconds, cpuSeconds, simulatedSeconds: sim.now() / 1e9 };
}

/** The same number of quanta through the sim alone: each end immediately re-dispatches. */
function bareLoop(quanta: number): number {
  const sim = new SimBackend({ workers: 8, seed: 1 });
  const work = { kernel: 'spin' as const, totalNanos: 100 * MS };
  let left = quanta;
  sim.setListener({
    quantumEnd: (end) => {
      if (--left >= 8) {
        sim.start({
          splitId: end.splitId,
          workerId: end.workerId,
          quantumNanos: MS,
          work,
          doneNanos: 0,
        });
      }
    },
  });
  for (let w = 0; w < 8; w++)
    sim.start({ splitId: w, workerId: w, quantumNanos: MS, work, doneNanos: 0 });
  const start = performance.now();
  sim.runUntilIdle();
  return quanta / ((performance.now() - start) / 1000);
}

/**
 * Rounds per policy, interleaved, the fastest kept: another process on the shared cores only ever
 * slows a round down (by up to half, on this machine), so the fastest round is the closest to the
 * simulator's own speed. Every round runs the same deterministic 2M quanta.
 */
const ROUNDS = 3;
const POLICIES = ['mlfq', 'fifo', 'fair', 'priority'] as const;

type Run = ReturnType<typeof simulate>;

function faster(a: Run | undefined, b: Run): Run {
  return a === undefined || b.quanta / b.seconds > a.quanta / a.seconds ? b : a;
}

export async function run(report: BenchReport): Promise<void> {
  simulate('fifo'); // warm-up
  bareLoop(2_000_000);
  const best = new Map<string, Run>();
  const bare = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const policy of POLICIES) {
      bare.set(policy, Math.max(bare.get(policy) ?? 0, bareLoop(2_000_000)));
      best.set(policy, faster(best.get(policy), simulate(policy)));
    }
  }
  for (const policy of POLICIES) {
    const r = best.get(policy)!;
    report.add(`sim.quanta_per_s.${policy}`, r.quanta / r.seconds, 'quanta/s', BAR);
    report.add(`sim.quanta_per_cpu_s.${policy}`, r.quanta / r.cpuSeconds, 'quanta/s', BAR);
    report.add(`sim.vs_bare_loop.${policy}`, r.quanta / r.seconds, 'quanta/s', bare.get(policy)!);
    if (policy === 'mlfq') {
      report.add('sim.quanta_per_s', r.quanta / r.seconds, 'quanta/s', BAR);
      report.add('sim.simulated_over_wall', r.simulatedSeconds / r.seconds, 'x', 1);
    }
  }
}
