/**
 * The `pool` suite: the library's path, `scheduler.run` — one `Executor` over the threads backend,
 * the only pool there is — side by side with Piscina, Tinypool, poolifier and workerpool, 2
 * workers each (pool-scheduler.ts: tiny tasks, factorial, boot, memory with runs queued).
 */
import { runSchedulerPool } from './pool-scheduler.ts';
import type { BenchReport } from './report.ts';

export async function run(report: BenchReport): Promise<void> {
  await runSchedulerPool(report);
}
