/**
 * `schedlab run --time-limit`: a run whose workload has no duration ends when its jobs do, and a
 * user module that never finishes would keep it going for ever; so such a run is bounded in wall
 * time (10 minutes unless the flag says otherwise). Past the limit the CLI says so and exits 1;
 * `main.ts` then ends the process even though stuck workers are still running.
 */
import { SchedLabError } from '../../shared/errors.ts';

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

/** `run` as it settles, or a `TimeLimitError` once `limitMs` of wall time has passed first. */
export function withTimeLimit<T>(
  limitMs: number | null,
  label: string,
  run: Promise<T>,
  advice?: string,
): Promise<T> {
  if (limitMs === null) return run;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeLimitError(label, advice)), limitMs);
  });
  return Promise.race([run, limit]).finally(() => clearTimeout(timer));
}

/**
 * The same limit for a run that keeps the event loop (the simulator steps its clock in one
 * synchronous loop, so a timer would never fire): a check it calls between steps, which returns
 * the error once `limitMs` of wall time has passed since this was made.
 */
export function pastTimeLimit(
  limitMs: number,
  label: string,
  advice?: string,
): () => TimeLimitError | null {
  const deadline = performance.now() + limitMs;
  return () => (performance.now() > deadline ? new TimeLimitError(label, advice) : null);
}
