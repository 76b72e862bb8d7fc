/**
 * Trino's simulator experiments (docs/design.md §9), as workload documents. On the
 * simulator they run with Trino's set-up — m = 2, 36 runners, minDrivers 72, 3 guaranteed and at
 * most 8 running leaf splits per task, 1 s quanta — and Trino's timelines. On real threads every
 * time is multiplied by `timeScale` (÷100: arrivals, split costs, and the quantum, thresholds and
 * cap with them; engine/core/workload/time-scale.ts) so an experiment of tens of minutes takes
 * seconds; the thread pool is the machine's, so threads runs are more overloaded.
 */
import type { TimelineStep, TrinoSpec, WorkloadInput } from '../../../../shared/workload.ts';

const S = 1000;
const MIN = 60 * S;

/** Trino's executor set-up for its simulator. */
export const TRINO_SIM_CONFIG = {
  policy: 'mlfq',
  workers: 36,
  minDrivers: 72,
  guaranteedPerTask: 3,
  maxDriversPerTask: 8,
  levelTimeMultiplier: 2,
  quantumMs: 1000,
  levelThresholdsMs: [0, 1000, 10_000, 60_000, 300_000],
  levelContributionCapMs: 30_000,
  fairness: 'task',
  // Trino's removeTask: a running split finishes its quantum and is charged all of it.
  cancelRunning: 'finish-quantum',
} as const;

/** ÷100 in time, on the machine's cores. */
const THREADS_SCALE = 0.01;
/** Threads runs: fewer runners (times are not set here: timeScale scales Trino's own). */
const TRINO_THREADS_CONFIG = { workers: 4, minDrivers: 8 };

type Spec = Omit<TrinoSpec, 'kernel'>;

function leaf(
  name: string,
  total: number | undefined,
  conc: number,
  splits: number,
  gen: TrinoSpec['generator'],
): Spec {
  return {
    name,
    type: 'leaf',
    ...(total === undefined ? {} : { totalTasks: total }),
    concurrentTasks: conc,
    splitsPerTask: splits,
    generator: gen,
  };
}

function inter(
  name: string,
  total: number | undefined,
  conc: number,
  splits: number,
  gen: TrinoSpec['generator'],
): Spec {
  return { ...leaf(name, total, conc, splits, gen), type: 'intermediate' };
}

const enable = (atMs: number, spec: string): TimelineStep => ({ atMs, action: 'enable', spec });
const clear = (atMs: number): TimelineStep => ({ atMs, action: 'clear' });
const mark = (atMs: number, label: string): TimelineStep => ({ atMs, action: 'mark', label });

function experiment(
  name: string,
  description: string,
  specs: Spec[],
  timeline: TimelineStep[],
  durationMs: number,
): WorkloadInput {
  return {
    name,
    description,
    seed: 1,
    durationMs,
    timeScale: THREADS_SCALE,
    config: { ...TRINO_SIM_CONFIG },
    threads: { ...TRINO_THREADS_CONFIG },
    trino: { controllerIntervalMs: 500, maxOutstandingLeafSplits: 3, specs, timeline },
  };
}

const repeat = (n: number, f: (i: number) => TimelineStep[]): TimelineStep[] =>
  Array.from({ length: n }, (_, i) => f(i)).flat();

/** 30 s, then 20 × (clear pending queue, 1 min). */
export const trinoOverloaded = experiment(
  'trino-overloaded',
  "Trino's overloaded cluster: full leaf mix, slow leaves and intermediate splits at once; every class accrues time, none waits disproportionately.",
  [
    leaf('leaf', undefined, 16, 30, 'aggregated'),
    leaf('slow_leaf', undefined, 16, 10, 'slow-leaf'),
    inter('intermediate', undefined, 8, 40, 'intermediate'),
  ],
  [
    enable(0, 'leaf'),
    enable(0, 'slow_leaf'),
    enable(0, 'intermediate'),
    ...repeat(20, (i) => [clear(30 * S + i * MIN)]),
  ],
  30 * S + 20 * MIN,
);

/** 60 × (20 s, clear pending queue). */
export const trinoStarveSlow = experiment(
  'trino-starve-slow',
  "Trino's starve-slow-splits: slow leaves, intermediates and fast leaves with fixed task totals; short tasks finish faster and nothing starves.",
  [
    leaf('slow_leaf', 600, 40, 4, 'slow-leaf'),
    inter('intermediate', 400, 40, 8, 'intermediate'),
    leaf('fast_leaf', 600, 40, 4, 'fast-leaf'),
  ],
  [
    enable(0, 'slow_leaf'),
    enable(0, 'intermediate'),
    enable(0, 'fast_leaf'),
    ...repeat(60, (i) => [clear((i + 1) * 20 * S)]),
  ],
  60 * 20 * S,
);

/** 120 × (clear pending queue, 20 s). */
export const trinoMisbehavingQuanta = experiment(
  'trino-misbehaving-quanta',
  "Trino's misbehaving quanta: level-4 leaves with calls ≤ 2 s against leaves whose calls run 1–200 s; overruns must not change accrued time shares.",
  [
    leaf('good_leaf', undefined, 16, 4, 'l4-leaf'),
    leaf('bad_leaf', undefined, 16, 4, 'quanta-exceeding'),
  ],
  [enable(0, 'good_leaf'), enable(0, 'bad_leaf'), ...repeat(120, (i) => [clear(i * 20 * S)])],
  120 * 20 * S,
);

/** Long alone 1 min; add short; 25 s; then 2 min. */
export const trinoWithinLevelFairness = experiment(
  'trino-within-level-fairness',
  "Trino's within-level fairness: two classes of level-4 tasks (4 min and 2 min of 1 s calls) get equal shares regardless of accrued time.",
  [
    inter('l4_long', undefined, 2, 16, { simple: { totalMs: 4 * MIN, perCallMs: S } }),
    inter('l4_short', undefined, 2, 16, { simple: { totalMs: 2 * MIN, perCallMs: S } }),
  ],
  [enable(0, 'l4_long'), enable(MIN, 'l4_short'), mark(MIN + 25 * S, 'both running 25 s')],
  MIN + 25 * S + 2 * MIN,
);
