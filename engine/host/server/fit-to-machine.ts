/**
 * A preset sized for more workers than this machine has cores, fitted to it for the live app.
 *
 * Threads work is real computation (a split's `totalMs` is CPU work, however loaded the machine),
 * so four workers on two cores do two cores' worth of work. `interactive-vs-scan` asks for ≈ 84 %
 * of four workers; on two cores that is ≈ 170 % of what the machine can do, the queue grows
 * without bound and the demo shows interactive latency of tens of seconds under any policy.
 * Fitting keeps the preset's intent and timeline — the same load relative to the workers — by
 * running one worker per core and scaling the offered work by the same factor: arrival processes
 * are stretched (each job and its work unchanged, they arrive more slowly), and a class that
 * arrives once brings proportionally fewer tasks (the scan then ends when it did on the preset's
 * own worker count, so a looping demo comes round again in the same time). A user's own workload
 * document is never fitted.
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
    classes: workload.classes.map((c) =>
      c.arrival.kind === 'once'
        ? { ...c, tasks: Math.max(1, Math.round(c.tasks * scale)) }
        : { ...c, arrival: slower(c.arrival, scale) },
    ),
  };
  const percent = Math.round(scale * 100);
  return {
    workload: fitted,
    note:
      `${workload.name} asks for ${asked} workers; this machine has ${cores} cores: ` +
      `running ${workers} worker${workers === 1 ? '' : 's'} with ${percent}% of the preset's work`,
  };
}

/** A repeating arrival process with its rate multiplied by `scale` (< 1): same jobs, later. */
function slower(arrival: Exclude<Arrival, { kind: 'once' }>, scale: number): Arrival {
  switch (arrival.kind) {
    case 'periodic':
      return { ...arrival, everyMs: arrival.everyMs / scale };
    case 'poisson':
      return { ...arrival, rate: arrival.rate * scale };
  }
}
