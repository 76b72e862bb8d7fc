/**
 * A preset sized for more workers than this machine has cores, fitted to it for the live app.
 *
 * Threads work is real computation (a split's `totalMs` is CPU work, however loaded the machine),
 * so four workers on two cores do two cores' worth of work. `interactive-vs-scan` asks for ≈ 84 %
 * of four workers; on two cores that is ≈ 170 % of what the machine can do, the queue grows
 * without bound and the demo shows interactive latency of tens of seconds under any policy.
 * Fitting keeps the preset's intent — the same load relative to the workers — by running one
 * worker per core and stretching the arrival processes by the same factor (the jobs and their work
 * are unchanged, they just arrive more slowly). A user's own workload document is never fitted.
 */
import type { Arrival, Workload } from '../../../shared/workload.ts';

export interface Fitted {
  readonly workload: Workload;
  /** What changed, for the log and the command's answer; null when nothing did. */
  readonly note: string | null;
}

export function fitToMachine(workload: Workload, cores: number): Fitted {
  const asked = workload.threads?.['workers'] ?? workload.config?.['workers'];
  if (typeof asked !== 'number' || asked <= cores || workload.classes === undefined) {
    return { workload, note: null };
  }
  const workers = Math.max(1, Math.floor(cores));
  const scale = workers / asked;
  const fitted: Workload = {
    ...workload,
    threads: { ...workload.threads, workers },
    classes: workload.classes.map((c) => ({ ...c, arrival: slower(c.arrival, scale) })),
  };
  const percent = Math.round(scale * 100);
  return {
    workload: fitted,
    note:
      `${workload.name} asks for ${asked} workers; this machine has ${cores} cores: ` +
      `running ${workers} worker${workers === 1 ? '' : 's'} with arrivals at ${percent}% of the preset's rate`,
  };
}

/** The arrival process with its rate multiplied by `scale` (< 1): same jobs, arriving later. */
function slower(arrival: Arrival, scale: number): Arrival {
  switch (arrival.kind) {
    case 'once':
      return arrival;
    case 'periodic':
      return { ...arrival, everyMs: arrival.everyMs / scale };
    case 'poisson':
      return { ...arrival, rate: arrival.rate * scale };
  }
}
