/**
 * A mixed load on real threads, below full offered load (issue 15's third figure): one tenant's
 * long scan, `SCAN_CHUNKS` chunks of 50 ms submitted at once, beside an interactive tenant sending
 * a 5 ms request every 20 ms. Offered work: 60 × 50 ms + 150 × 5 ms = 3.75 s over a 3 s window on
 * 2 workers, 62 % of capacity. The figure is the interactive requests' p95 latency (submission to
 * result) through `scheduler.run` under `mlfq` and `fair`, each over Piscina's (FIFO, the same
 * task module, the same arrivals): lower is better, the bar is ≤ 0.2 (5× better).
 *
 * The task is the fair-http example's (examples/fair-http/task.mjs): it checks `ctx.shouldYield()`
 * and hands its worker back between quanta under SchedLab; Piscina passes no `ctx`, so there it
 * runs each chunk to its end, as any FIFO pool runs a task.
 */
import { Piscina } from 'piscina';
import { Scheduler } from 'schedlab';
import type { BenchReport } from './report.ts';

const WORKERS = 2;
const SCAN_CHUNKS = 60;
const SCAN_MS = 50;
const REQUESTS = 150;
const REQUEST_MS = 5;
const EVERY_MS = 20;
const TASK = new URL('../examples/fair-http/task.mjs', import.meta.url);

type Run = (ms: number, tenant: string) => Promise<unknown>;

export async function run(report: BenchReport): Promise<void> {
  const piscina = new Piscina({ filename: TASK.href, minThreads: WORKERS, maxThreads: WORKERS });
  const fifo = await closing(
    () => p95((ms) => piscina.run({ ms })),
    () => piscina.destroy(),
  );
  for (const policy of ['mlfq', 'fair'] as const) {
    const s = new Scheduler({ workers: WORKERS, policy });
    const ours = await closing(
      () => p95((ms, tenant) => s.run({ module: TASK }, { ms }, { tenant })),
      () => s.close(),
    );
    report.add(`mixed.interactive_p95_ms_${policy}_vs_piscina`, ours, 'ms', fifo);
  }
}

/** The interactive p95 (ms) of one pass of the mixed load on `pool`, after a warm-up. */
async function p95(runOne: Run): Promise<number> {
  await Promise.all(Array.from({ length: 2 * WORKERS }, () => runOne(REQUEST_MS, 'warm-up')));
  const scan = Array.from({ length: SCAN_CHUNKS }, () => runOne(SCAN_MS, 'scan'));
  const latencies: Promise<number>[] = [];
  const start = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    await sleepUntil(start + i * EVERY_MS);
    const sent = performance.now();
    latencies.push(runOne(REQUEST_MS, 'interactive').then(() => performance.now() - sent));
  }
  await Promise.all(scan);
  const sorted = (await Promise.all(latencies)).sort((a, b) => a - b);
  return sorted[Math.ceil(0.95 * sorted.length) - 1]!;
}

/** Sleeps to `at` (ms on `performance.now()`): sends keep their schedule after a late wake-up. */
function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
}

async function closing<T>(body: () => Promise<T>, close: () => Promise<unknown>): Promise<T> {
  try {
    return await body();
  } finally {
    await close();
  }
}
