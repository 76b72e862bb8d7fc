/**
 * `schedlab run --time-limit`: a run whose workload has no duration ends when its jobs do, and a
 * user module that never finishes would keep it going for ever; so such a run is bounded in wall
 * time (10 minutes unless the flag says otherwise). The limit counts from the command's start:
 * reading, checking and compiling the workload are part of it (a 200 MB graph document takes
 * seconds to load). Past the limit the CLI says so and exits 1; `main.ts` then ends the process
 * even though stuck workers are still running.
 */
import { SchedLabError } from '../../shared/errors.ts';
import { formatMs } from '../../shared/lib/format.ts';

export const DEFAULT_TIME_LIMIT = '10m';
export const DEFAULT_TIME_LIMIT_MS = 600_000;
/**
 * The longest limit: Node's longest timer (2^31 − 1 ms, 24.8 days). Past it `setTimeout` fires at
 * once (with a `TimeoutOverflowWarning`), so `--time-limit 597h` stopped the run at its start.
 */
export const MAX_TIME_LIMIT = { ms: 2 ** 31 - 1, text: '596h (Node’s longest timer)' } as const;

/** What to do about a run stopped at its limit: a duration helps only a workload that takes one. */
export const TIME_LIMIT_ADVICE = {
  durationOrLimit: 'give the workload a durationMs (or --duration), or raise --time-limit',
  limit: 'raise --time-limit',
} as const;

export class TimeLimitError extends SchedLabError {
  constructor(limit: string, advice: string = TIME_LIMIT_ADVICE.durationOrLimit) {
    super(
      'TIME_LIMIT',
      `the run passed its time limit of ${limit} (wall clock) and was stopped; ${advice}`,
      '--time-limit',
    );
    this.name = 'TimeLimitError';
  }
}

/** A command's limit: its deadline in wall-clock ms, and how it is named when passed. */
export interface TimeLimit {
  readonly deadline: number;
  readonly label: string;
  /** What to do about it, read when the limit passes (a Redis outage meanwhile may change it). */
  readonly advice: string | (() => string);
  readonly now: () => number;
}

function passed(limit: TimeLimit): TimeLimitError {
  const advice = typeof limit.advice === 'function' ? limit.advice() : limit.advice;
  return new TimeLimitError(limit.label, advice);
}

/** `run` as it settles, or a `TimeLimitError` once the limit's deadline has passed first. */
export function withTimeLimit<T>(limit: TimeLimit | null, run: Promise<T>): Promise<T> {
  if (limit === null) return run;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const passedFirst = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(passed(limit)), Math.max(0, limit.deadline - limit.now()));
  });
  return Promise.race([run, passedFirst]).finally(() => clearTimeout(timer));
}

/**
 * The advice of a cluster run stopped at its limit when Redis refuses writes now (`refused`,
 * `ClusterBackend.writesRefused`) or was away for some of it (`away`, `ClusterBackend.redisAway`;
 * `startedAt`: the run's start, wall ms), else `advice`: the run waited on Redis, and neither a
 * duration nor a longer limit is what it needs.
 */
export function redisAwayAdvice(
  display: string,
  away: { ms: number; since: number | null },
  refused: string | null,
  startedAt: number,
  advice: string,
): string {
  if (away.since !== null) {
    const since = formatMs(Math.max(0, away.since - startedAt));
    return `Redis at ${display} has been away for ${formatMs(away.ms)} of it (since ${since} in): nothing could run meanwhile — bring Redis back, then run again`;
  }
  if (refused !== null) {
    return `${refused}: nothing could be dispatched or ended meanwhile — make Redis take writes again (out of memory: free some or raise its maxmemory), then run again`;
  }
  if (away.ms <= 0) return advice;
  return `Redis at ${display} was away for ${formatMs(away.ms)} of it, when nothing could run; ${advice}`;
}

/**
 * The same limit for work that keeps the event loop (the simulator steps its clock in one
 * synchronous loop, a graph compiles in one piece, so a timer would never fire): a check to call
 * between steps, which returns the error once the deadline has passed.
 */
export function pastTimeLimit(limit: TimeLimit): () => TimeLimitError | null {
  return () => (limit.now() > limit.deadline ? passed(limit) : null);
}
