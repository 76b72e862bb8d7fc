// `npm run bench`: runs every benchmark module in turn (or those named on the command line) and
// ends with one `BENCH_JSON {...}` line holding every figure, so runs compare across commits.
import { SchedLabError } from '../shared/errors.ts';
import { BenchReport } from './report.ts';
import { forceGc, untilIdle } from './gc.ts';

type BenchModule = { run(report: BenchReport): Promise<void> };

const suites: Record<string, () => Promise<BenchModule>> = {
  pool: () => import('./pool.ts'),
  kernels: () => import('./kernels.ts'),
  renderer: () => import('./renderer.ts'),
  'priority-queue': () => import('./priority-queue.ts'),
  dag: () => import('./dag.ts'),
  'dag-small': () => import('./dag-small.ts'),
  mlfq: () => import('./mlfq.ts'),
  sim: () => import('./sim.ts'),
  'live-max': () => import('./live-max.ts'),
  trino: () => import('./trino.ts'),
  memory: () => import('./memory.ts'),
  telemetry: () => import('./telemetry.ts'),
  cluster: () => import('./cluster.ts'),
  mixed: () => import('./mixed.ts'),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !Object.hasOwn(suites, w));
if (unknown.length > 0)
  throw new SchedLabError(
    'INVALID_ARGUMENT',
    `bench: no suite ${unknown.join(', ')} (suites: ${Object.keys(suites).join(', ')})`,
    'suite',
  );
const report = new BenchReport();
for (const [name, load] of Object.entries(suites)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  console.log(`\n# ${name}`);
  // Each suite starts on a collected heap and an idle process: the last suite's garbage and
  // threads (the pool's 200k queued runs, the 1M-node graphs) do not run inside the next one's
  // timed runs (a dag-small run right after the pool suite read 0.52–0.59 ms for a 10k chain,
  // 0.18 ms alone).
  forceGc();
  const busy = await untilIdle();
  if (busy >= 0.05)
    console.log(`  (the process was still busy: ${(busy * 100).toFixed(0)} % of a core)`);
  await (await load()).run(report);
}
console.log(`BENCH_JSON ${JSON.stringify(report.figures)}`);
// A baseline pool that never closed (bench/pool-scheduler.ts `closed`) would keep its threads and
// the process alive; every figure is out by now.
process.exit(0);
