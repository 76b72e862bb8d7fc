/**
 * The JSON report of one run — a contract read outside the repository (issue 4):
 * `{ workload, backend, seed, config, makespanMs, classes, levels, workers, fairness, dag? }`
 * plus extra fields. Times are ms of workload time: backend time, divided by the workload's
 * `timeScale` on threads so a scaled-down run reads like the simulator's. It holds no wall-clock
 * values, so on the simulator the same seed gives the
 * same report byte for byte.
 */
import type { EngineConfig } from '../../../shared/config.ts';
import type { ExecutorStatsRow, GraphMetricsRow } from '../../../shared/protocol.ts';
import type { ClassReport } from './class-stats.ts';
import type { TrinoSummaryJson } from './trino-stats.ts';

/** Every figure's definition: docs/metrics.md. */
export interface LevelReport {
  level: number;
  label: string;
  /**
   * Time spent running splits that were dispatched at this level (each quantum whole, by the
   * level its split had at dispatch; from the quanta themselves).
   */
  scheduledMs: number;
  /**
   * Time charged to this level over the run (`LevelRow.chargedNanos`): for MLFQ what quanta
   * contributed after the contribution cap, split across levels when a quantum crosses a
   * threshold; for other policies the quantum time of the row.
   */
  chargedMs?: number;
  /** This level's share of the charged time over the run, 0..1 (`chargedShares`). */
  share?: number;
  selections: number;
  /** Deepest this level's ready queue was, sampled every 100 ms of run time (50 ms on threads). */
  maxDepth?: number;
  /**
   * PRIO only: aging boosts given to this band's splits over the run (`LevelRow.agingBoosts`:
   * each aging re-key of a queued split to a more urgent priority counts one).
   */
  agingBoosts?: number;
}

/** A graph run's figures in a report: the app's metrics row without the run's shape. */
export type DagReport = Omit<GraphMetricsRow, 'workers' | 'makespanMs'>;

export interface RunReport {
  workload: string;
  backend: 'sim' | 'threads' | 'cluster';
  seed: number;
  /**
   * A graph run: the seed of each generator that draws from one, in document order. A document
   * carries its own (default 1), which `seed` reaches only as `--seed` (it replaces them all), so
   * `seed` alone did not say how to draw the same graphs again.
   */
  graphSeeds?: number[];
  /** The config the engine ran with (on threads its times are workload time × `timeScale`). */
  config: EngineConfig;
  /** threads only: the workload's timeScale (report times are divided by it). */
  timeScale?: number;
  makespanMs: number;
  /** Set when the run was cut at its duration with work still live. */
  stoppedAtMs: number | null;
  classes: Record<string, ClassReport>;
  levels: LevelReport[];
  workers: { count: number; utilization: number };
  /**
   * `jain`: over ended jobs; `tenantJain`: across the `tenants` of ended jobs (1 when there are
   * fewer than two), docs/metrics.md; `tenantWeights`: the weights under `fair` at the end, when
   * any is not 1. The tenant figures are absent from graph runs.
   */
  fairness: {
    jain: number;
    tenants?: number;
    tenantJain?: number;
    tenantWeights?: Record<string, number>;
  };
  counters: {
    quanta: number;
    overrunMs: number;
    spansDropped: number;
    splitsRejected: number;
    /**
     * Worker wall time (ended quanta plus running ones at the end) and, on threads where it is
     * measured, the CPU time the workers' threads used in ended quanta (docs/hard-limit.md).
     * Optional: added with the hard limit.
     */
    busyMs?: number;
    cpuMs?: number;
    /** Quanta that overran by more than `runawayAfterMs` (Trino's runaway splits), and killed ones. */
    runawayQuanta?: number;
    killedQuanta?: number;
    /** Splits still running past quantum + `runawayAfterMs` when the run ended (stuck). */
    stuckSplitIds?: number[];
    /** Their tasks, each once (Trino's `getStuckSplitTaskIds`). Optional: added after the ids. */
    stuckTaskIds?: number[];
  };
  /**
   * Jobs that did not succeed, by error code (`KERNEL_FAILED`, `WORKER_LOST`,
   * `QUANTUM_OVERRUN_KILLED`, `CANCELLED`, `QUEUE_FULL`, …): how many, and the first one's
   * reason. Absent when every job succeeded, and from graph runs.
   */
  failures?: Record<string, { jobs: number; first: string }>;
  /**
   * Trino's executor statistics over the run, as frames carry them (docs/metrics.md). Optional:
   * added with them; absent for graph runs (their own executors).
   */
  executorStats?: ExecutorStatsRow;
  dag?: DagReport;
  /** Graph workloads with several graphs: each one's figures. */
  dags?: (DagReport & {
    name: string;
    executor: string;
    /** The ready-queue policy: central runs only (work stealing has none). */
    policy?: string;
    nodes: number;
    /** Nodes that failed (after their retries), were cancelled (fail-fast), or were skipped. */
    failed: number;
    cancelled: number;
    skipped: number;
    /** The first node that failed and why (fail-fast stops the graph there). */
    rootCause?: { node: string; message: string };
    /** Spans the executor's ring let go before the trace saw them (with `--trace` only). */
    droppedSpans?: number;
    /** Work stealing with `--trace`: one node in this many has a span (sampled, not dropped). */
    spanSampleEvery?: number;
    /** Work stealing: true when the graph ran solo on the calling thread, not on the workers. */
    solo?: boolean;
  })[];
  trino?: TrinoSummaryJson;
}

export const ms3 = (nanos: number) => Math.round(nanos / 1e3) / 1e3;
export const round3 = (x: number) => Math.round(x * 1000) / 1000;
