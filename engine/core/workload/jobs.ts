/**
 * Turns a job class into concrete jobs: tasks of splits whose costs are drawn from the class's
 * distributions or Trino generator with a seeded Rng: a `JobSpec` of shared/job.ts, which the
 * executor takes as it is.
 */
import type { JobSpec, SplitSpec, SplitWork } from '../../../shared/job.ts';
import type { JobClass, TrinoSpec, WorkSpec } from '../../../shared/workload.ts';
import { sampleNanos } from './distributions.ts';
import type { Rng } from '../../../shared/lib/rng.ts';
import { MAX_CALLS_PER_SPLIT } from '../../../shared/limits.ts';
import { generateSplit, simpleSplit, type SplitCost } from './trino-generators.ts';

const MS = 1_000_000;

export type Kernel = WorkSpec['kernel'];

/**
 * The shortest call a split of `totalNanos` may make: at most `MAX_CALLS_PER_SPLIT` calls, each a
 * quantum (a drawn `perCallMs` below it is raised to it; docs/limits.md).
 */
export function leastPerCall(totalNanos: number): number {
  return Math.ceil(totalNanos / MAX_CALLS_PER_SPLIT);
}

/**
 * Multiplies every time of a split's cost by `scale` (threads `timeScale`); never below 1 ns, nor
 * more calls than `MAX_CALLS_PER_SPLIT`.
 */
export function scaleCost(cost: SplitCost, scale: number): SplitCost {
  const s = (x: number) => (scale === 1 ? x : Math.max(1, Math.round(x * scale)));
  const totalNanos = s(cost.totalNanos);
  const perCallNanos = Math.max(s(cost.perCallNanos), leastPerCall(totalNanos));
  if (scale === 1 && perCallNanos === cost.perCallNanos) return cost;
  const out = { totalNanos, perCallNanos };
  return cost.blockedNanosPerCall === undefined
    ? out
    : { ...out, blockedNanosPerCall: Math.round(cost.blockedNanosPerCall * scale) };
}

/** One split's cost for a generator given by name or as `{simple}`. */
export function generatorCost(rng: Rng, generator: TrinoSpec['generator']): SplitCost {
  return typeof generator === 'string'
    ? generateSplit(rng, generator)
    : simpleSplit(generator.simple.totalMs * MS, generator.simple.perCallMs * MS);
}

export function drawWork(rng: Rng, w: WorkSpec, scale = 1): SplitWork {
  const base = w.input === undefined ? { kernel: w.kernel } : { kernel: w.kernel, input: w.input };
  if (w.generator !== undefined)
    return { ...base, ...scaleCost(generatorCost(rng, w.generator), scale) };
  const r = (x: number) => Math.round(x * scale);
  // A zero-time split still has to be dispatched once to finish.
  const totalNanos = r(sampleNanos(rng, w.totalMs ?? { kind: 'fixed', ms: 0 }));
  let work: SplitWork = { ...base, totalNanos };
  if (w.perCallMs !== undefined) {
    const drawn = r(sampleNanos(rng, w.perCallMs));
    work = { ...work, perCallNanos: Math.max(1, drawn, leastPerCall(totalNanos)) };
  }
  if (w.blockedMs !== undefined)
    work = { ...work, blockedNanosPerCall: r(sampleNanos(rng, w.blockedMs)) };
  return work;
}

export function drawJob(rng: Rng, c: JobClass, scale = 1): JobSpec {
  const tasks = Array.from({ length: c.tasks }, () => {
    const splits: SplitSpec[] = [];
    for (let i = 0; i < c.splits.leaf; i++)
      splits.push({ kind: 'leaf', work: drawWork(rng, c.work, scale) });
    for (let i = 0; i < c.splits.intermediate; i++)
      splits.push({ kind: 'intermediate', work: drawWork(rng, c.work, scale) });
    return {
      splits,
      ...(c.maxDriversPerTask === undefined ? {} : { maxDriversPerTask: c.maxDriversPerTask }),
      ...(c.outputBuffer === undefined ? {} : { outputBuffer: c.outputBuffer }),
    };
  });
  const tenant = c.tenant === undefined ? {} : { tenant: c.tenant };
  return { class: c.name, basePriority: c.basePriority, retries: c.retries, tasks, ...tenant };
}
