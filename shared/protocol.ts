/**
 * The wire contract between a host (Electron main, browser-mode server, CLI) and its clients
 * (docs/design.md §6). Commands go client → host, each validated here (zod) and answered with a
 * `CommandResult`; frames go host → client at a fixed rate; a new client gets a `Snapshot` first.
 *
 * Changes to this file are additive only: clients in flight depend on every name below.
 */
import { JOB_QUERY_MAX_CHARS } from './lib/job-query.ts';
import { QUANTUM_OUTCOMES, type QuantumOutcome } from './lib/outcomes.ts';
import type { BucketCounts, SampleCounts } from './lib/histogram.ts';
import type { SpanColumns } from './lib/span-ring.ts';
import { z } from 'zod';
import { jobSpecSchema, prioritySchema, tenantWeightsSchema, type splitSpecSchema } from './job.ts';
import { MAX_SEED, MAX_SPLITS_PER_JOB } from './limits.ts';
import type { ErrorCode, ErrorInfo } from './errors.ts';
import {
  engineConfigPatchSchema,
  POLICY_NAMES,
  policyNameSchema,
  type EngineConfig,
  type PolicyName,
} from './config.ts';
import {
  GRAPH_ERROR_MODES,
  GRAPH_EXECUTORS,
  GRAPH_POLICIES,
  type GraphErrorMode,
  type GraphExecutorKind,
  type GraphPolicy,
} from './graph.ts';

// ─── job specs ──────────────────────────────────────────────────────────────────────────────

// The job schemas live in shared/job.ts (the engine's job types are inferred from them).
export {
  jobSpecSchema,
  KERNEL_NAMES,
  splitSpecSchema,
  splitWorkSchema,
  taskSpecSchema,
} from './job.ts';
export type SplitSpecWire = z.infer<typeof splitSpecSchema>;
export type JobSpecWire = z.infer<typeof jobSpecSchema>;

// ─── graph runs ─────────────────────────────────────────────────────────────────────────────

/**
 * Session-wide choices for graph runs (docs/design.md §3.4: selectable per run). A key set here
 * overrides what the graph document says; `null` clears it (the document decides again).
 */
export const graphConfigPatchSchema = z
  .object({
    graphPolicy: z.enum(GRAPH_POLICIES).nullable(),
    executor: z.enum(GRAPH_EXECUTORS).nullable(),
    graphErrorMode: z.enum(GRAPH_ERROR_MODES).nullable(),
  })
  .partial()
  .strict();
export type GraphConfigPatch = z.infer<typeof graphConfigPatchSchema>;
export interface GraphConfig {
  graphPolicy: GraphPolicy | null;
  executor: GraphExecutorKind | null;
  graphErrorMode: GraphErrorMode | null;
}

// ─── compare ────────────────────────────────────────────────────────────────────────────────

/** Simulated time a `compare` runs each config for, unless it says otherwise (ms). */
export const COMPARE_DEFAULT_DURATION_MS = 30_000;
/** Longest a `compare` may ask for: each run blocks the host's event loop while it lasts. */
export const COMPARE_MAX_DURATION_MS = 120_000;

/** A column's `policy`: a split-queue policy, or on a graph workload a graph ready-queue policy. */
const COMPARE_POLICIES = [
  ...new Set<PolicyName | GraphPolicy>([...POLICY_NAMES, ...GRAPH_POLICIES]),
];

/**
 * One column of a comparison: a config patch, plus an optional label for its column. On a graph
 * workload `policy` orders the graph's ready nodes (`lifo`, `critical-path`…), as `--policies`
 * does for `schedlab compare`; the host refuses a split-queue name there.
 */
export const compareConfigSchema = engineConfigPatchSchema
  .extend({
    policy: z.enum(COMPARE_POLICIES as [PolicyName | GraphPolicy]).optional(),
    label: z.string().min(1).max(64).optional(),
  })
  .strict();
export type CompareConfigWire = z.infer<typeof compareConfigSchema>;

/** One class's figures in one run of a comparison (ms). */
export interface CompareClassRow {
  jobs: number;
  succeeded: number;
  /** Jobs still running when the run was cut at its duration. */
  unfinished: number;
  latencyMs: Omit<Percentiles, 'count'>;
  /** Absent where nothing measured it (a graph run's graphs). */
  waitMs?: Omit<Percentiles, 'count'>;
}

/** One config's run of a comparison (the `compare` result's `reports[i]`). */
export interface CompareReportRow {
  label: string;
  /** The config the run used: defaults ← workload ← this column's patch. */
  config: EngineConfig;
  makespanMs: number;
  stoppedAtMs: number | null;
  classes: Record<string, CompareClassRow>;
  /** Each level's share of the charged time (`chargedShares`), 0..1, to 4 decimals. */
  levelShares: { level: number; label: string; share: number }[];
  utilization: number;
  jain: number;
  quanta: number;
  /** Queue depth and charged time per level over the run. Optional: added with richer compare. */
  series?: CompareSeries;
  /** Each class's latency samples as the shared histogram's buckets, for its CDF. Optional. */
  latencyBuckets?: Record<string, BucketCounts>;
}

/**
 * One run's levels over time, oldest first, at most a few hundred points (evenly thinned):
 * `depth[i][l]` and cumulative `chargedMs[i][l]` at `tMs[i]` (ms of run time) for level `labels[l]`.
 */
export interface CompareSeries {
  labels: string[];
  tMs: number[];
  depth: number[][];
  chargedMs: number[][];
}

/** The `compare` command's answer, besides `ok` and `id`. */
export interface CompareResultWire {
  workload: string;
  seed: number;
  durationMs: number;
  reports: CompareReportRow[];
}

// ─── finding and following jobs ─────────────────────────────────────────────────────────────

/** Rows a `findJobs` answers unless it asks for fewer or more; the most it may ask for. */
export const FIND_JOBS_DEFAULT_LIMIT = 100;
export const FIND_JOBS_MAX_LIMIT = 500;

/** The `findJobs` answer, besides `ok` and `id`. */
export interface FindJobsResult {
  /** Matching jobs, live first (oldest first), then ended ones (newest first); ≤ `limit`. */
  jobs: JobRow[];
  /** All the jobs that matched; `more` = `matched` − `jobs.length`. */
  matched: number;
  more: number;
  /** Ended jobs the engine still remembers (the bounded history searched besides live jobs). */
  endedKept: number;
}

/** What a split was doing over a stretch of time (docs/jobs.md "Following a job"). */
export const SEGMENT_KINDS = ['queued', 'waiting', 'running', 'blocked', 'backoff'] as const;
export type SegmentKind = (typeof SEGMENT_KINDS)[number];

export interface SplitSegment {
  kind: SegmentKind;
  startNanos: number;
  /** Null: still going on now. */
  endNanos: number | null;
  /** `running`: the worker, the level (MLFQ) or band (priority) it ran at, how it ended. */
  worker?: number;
  level?: number;
  outcome?: QuantumOutcome | 'in progress';
  /** A `failed` quantum's code (`KERNEL_FAILED`, `WORKER_LOST`, …). */
  errorCode?: ErrorCode;
}

export interface SplitDetail {
  splitId: number;
  taskId: number;
  /** `waiting`, `queued`, `running`, `blocked`, `retrying`, `succeeded`, `failed`, `cancelled`. */
  state: string;
  /** Oldest first; at most `JOB_DETAIL_MAX_SEGMENTS` (the newest are kept). */
  segments: SplitSegment[];
  /** Segments left out (the oldest) to keep the answer bounded. */
  segmentsCut: number;
  /** Its waits for a worker (ready queue), and its time on workers (ns). */
  waitNanos: number;
  scheduledNanos: number;
  quanta: number;
  retries: number;
  errorCode?: ErrorCode;
}

/**
 * A change in how urgent a split was: `level` (MLFQ: dispatched at another level than its last
 * quantum, a demotion when `to` > `from`), `aging` (priority: dispatched at an effective priority
 * `to` aged below its base `from`), `reprioritize` (the job's base priority set `from` → `to`).
 */
export interface PriorityChange {
  timeNanos: number;
  /** −1 for `reprioritize` (the whole job). */
  splitId: number;
  kind: 'level' | 'aging' | 'reprioritize';
  from: number;
  to: number;
}

/** Most splits, segments per split and changes a `jobDetail` answer holds. */
export const JOB_DETAIL_MAX_SPLITS = 64;
export const JOB_DETAIL_MAX_SEGMENTS = 200;
export const JOB_DETAIL_MAX_CHANGES = 200;

/** The `jobDetail` answer, besides `ok` and `id`. */
export interface JobDetail {
  job: JobRow;
  /** In split id order; at most `JOB_DETAIL_MAX_SPLITS`, `splitsMore` left out. */
  splits: SplitDetail[];
  splitsMore: number;
  /** Oldest first; at most `JOB_DETAIL_MAX_CHANGES` (the newest). */
  changes: PriorityChange[];
  changesCut: number;
  /**
   * False when the engine's bounded job trail no longer holds the job's start: the timelines
   * then begin at `trailSinceNanos`, the oldest moment the trail still holds.
   */
  complete: boolean;
  trailSinceNanos: number;
  /** The warnings the job raises now (`JobWarning`). */
  warnings: JobWarning[];
}

/** The rules of the warnings panel (docs/jobs.md "Warnings"). */
export const WARNING_RULES = ['starving', 'overrun', 'slow-split', 'retries'] as const;
export type WarningRule = (typeof WARNING_RULES)[number];

/** A live job that looks wrong now, and the rule that says so (the worst split named). */
export interface JobWarning {
  jobId: number;
  class: string;
  rule: WarningRule;
  splitId: number;
  /** For people: `split 7 has waited 2:05.3 (bound 2:00.0)`. */
  message: string;
}

/** Most warnings a frame carries (`Frame.warnings`); the rest are counted in `warningsMore`. */
export const FRAME_MAX_WARNINGS = 50;
// ─── backends ───────────────────────────────────────────────────────────────────────────────

/**
 * What a live session runs on: real worker threads, the seeded simulator, or worker nodes over
 * Redis (`cluster`, offered only when the host was started with a Redis URL).
 */
export const BACKEND_NAMES = ['threads', 'sim', 'cluster'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

/** Sim pace: virtual ms per real ms, or `max` (as fast as the host keeps up). */
const speedSchema = z.union([z.number().gt(0).max(1e6), z.literal('max')]);

// ─── commands ───────────────────────────────────────────────────────────────────────────────

/** Every command may carry an `id` the result echoes, so clients can match answers. */
const base = { id: z.union([z.string().max(128), z.number()]).optional() };

/**
 * A job a client submits: at most `MAX_SPLITS_PER_JOB` splits in all, as a workload's jobs, and as
 * many tasks; no open task. Counted on the raw document before any split is checked (the job
 * schema alone lets 10^5 tasks of 10^6 splits through; one job of 250,000 splits took 4.8 s to
 * refuse, 40,000 empty tasks 10 s to run). An open task ends only on `closeTask`, which no command
 * sends: each was a job that never ended, outside `maxQueued` (a thousand passed a `maxQueue` of 100).
 */
const submittedJobSchema = z
  .unknown()
  .superRefine((raw, ctx) => {
    const tasks = (raw as { tasks?: unknown } | null)?.tasks;
    if (!Array.isArray(tasks)) return; // the job schema names what is wrong
    if (tasks.length > MAX_SPLITS_PER_JOB) {
      const message = `must hold at most ${MAX_SPLITS_PER_JOB} tasks, got ${tasks.length}`;
      ctx.addIssue({ code: 'custom', message, path: ['tasks'] });
      return;
    }
    let splits = 0;
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[i] as { splits?: unknown; open?: unknown } | null;
      if (task?.open === true) {
        const message = "cannot be open: a submitted job's tasks hold all their splits";
        ctx.addIssue({ code: 'custom', message, path: ['tasks', i, 'open'] });
        return;
      }
      if (Array.isArray(task?.splits)) splits += task.splits.length;
    }
    if (splits > MAX_SPLITS_PER_JOB) {
      const message = `must hold at most ${MAX_SPLITS_PER_JOB} splits in all, got ${splits}`;
      ctx.addIssue({ code: 'custom', message, path: ['tasks'] });
    }
  })
  .pipe(jobSpecSchema);

/**
 * Strict: a misspelt field is refused naming it (`findJobs` with `limt` returned 100 rows, a
 * `compare` with `durationMS` ran 30 s), as `configure` and the job itself always were.
 */
export const commandSchemas = {
  configure: z
    .object({ ...base, type: z.literal('configure'), config: engineConfigPatchSchema })
    .strict(),
  setPolicy: z.object({ ...base, type: z.literal('setPolicy'), policy: policyNameSchema }).strict(),
  setWorkers: z
    .object({
      ...base,
      type: z.literal('setWorkers'),
      workers: z.number().int().min(1).max(256),
    })
    .strict(),
  submitJob: z.object({ ...base, type: z.literal('submitJob'), job: submittedJobSchema }).strict(),
  cancelJob: z
    .object({ ...base, type: z.literal('cancelJob'), jobId: z.number().int().min(0) })
    .strict(),
  reprioritize: z
    .object({
      ...base,
      type: z.literal('reprioritize'),
      jobId: z.number().int().min(0),
      priority: prioritySchema,
    })
    .strict(),
  /**
   * Interrupts a running split now (Trino's interrupt of a runaway split): it fails with
   * `INTERRUPTED` (or retries); answers `{ splitId, jobId, workerId }`. A split that is not
   * running is `UNKNOWN_ID` naming `splitId`.
   */
  interruptSplit: z
    .object({
      ...base,
      type: z.literal('interruptSplit'),
      splitId: z.number().int().min(0),
    })
    .strict(),
  pause: z.object({ ...base, type: z.literal('pause') }).strict(),
  resume: z.object({ ...base, type: z.literal('resume') }).strict(),
  /** Runs a workload document (schema owned by the workloads module; validated there). */
  loadWorkload: z
    .object({ ...base, type: z.literal('loadWorkload'), workload: z.unknown() })
    .strict(),
  runPreset: z
    .object({
      ...base,
      type: z.literal('runPreset'),
      preset: z.string().min(1).max(128),
      options: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
  snapshot: z.object({ ...base, type: z.literal('snapshot') }).strict(),
  /** Graph policy / executor / error mode for the next graph runs (see `graphConfigPatchSchema`). */
  configureGraph: z
    .object({
      ...base,
      type: z.literal('configureGraph'),
      config: graphConfigPatchSchema,
    })
    .strict(),
  /**
   * Stops the running workload's arrivals, then cancels every queued and running job and a
   * running graph run; answers `{ cancelled }`, the number of jobs (a graph run counts as one)
   * it cancelled. A preset switch that cancels: `cancelAll`, then `runPreset`.
   */
  cancelAll: z.object({ ...base, type: z.literal('cancelAll') }).strict(),
  /** Restarts the window of the frames' `latency` and `wait` tables (`Frame.statsSinceNanos`). */
  resetStats: z.object({ ...base, type: z.literal('resetStats') }).strict(),
  /** Sim backend: how many virtual ms pass per real ms while running live. */
  setSpeed: z
    .object({
      ...base,
      type: z.literal('setSpeed'),
      /** `max`: as fast as the host keeps up (frames still go out at the frame rate). */
      speed: speedSchema,
    })
    .strict(),
  /**
   * The app's live session moves to another backend (`Snapshot.backends` lists those on offer),
   * like a preset switch: `cancel` cancels the old backend's jobs first (`cancelAll`) and switches
   * at once; `drain` stops the old workload's arrivals, lets its live jobs finish on the old
   * backend (frames say so in `backendSwitch`) and then switches. The new backend runs the preset
   * that was running as a launch there would: the preset's own knobs for that backend, then the
   * launch config (knobs changed live do not carry over, nor a pause; docs/live-backends.md);
   * clients get a fresh snapshot. `speed` and `seed` are for `sim`. Answers
   * `{ backend, mode, cancelled }` (cancel) or `{ backend, mode, draining }` (drain: the live jobs
   * left to finish).
   */
  setBackend: z
    .object({
      ...base,
      type: z.literal('setBackend'),
      backend: z.enum(BACKEND_NAMES),
      mode: z.enum(['drain', 'cancel']),
      speed: speedSchema.optional(),
      seed: z.number().int().min(0).max(MAX_SEED).optional(),
    })
    .strict(),
  /**
   * Runs one seeded workload (a preset, or a workload document) once per config on a fresh
   * simulator, apart from the live session, and answers with one report per config.
   */
  compare: z
    .object({
      ...base,
      type: z.literal('compare'),
      preset: z.string().min(1).max(128).optional(),
      /** A workload document (schema owned by the workloads module; validated there). */
      workload: z.unknown().optional(),
      configs: z.array(compareConfigSchema).min(2).max(4),
      seed: z.number().int().min(0).max(MAX_SEED).optional(),
      durationMs: z.number().gt(0).max(COMPARE_MAX_DURATION_MS).optional(),
    })
    .strict(),
  /**
   * Stops the `compare` running, if any: it runs no further simulator step and answers
   * `CANCELLED`; the next `compare` may start at once. Answers `{ cancelled }`: whether one ran.
   */
  cancelCompare: z.object({ ...base, type: z.literal('cancelCompare') }).strict(),
  /**
   * Searches live jobs and the ended ones the engine still remembers (`shared/lib/job-query.ts`
   * says the query language); answers `FindJobsResult`, at most `limit` rows. Read-only.
   */
  findJobs: z
    .object({
      ...base,
      type: z.literal('findJobs'),
      query: z.string().max(JOB_QUERY_MAX_CHARS),
      limit: z.number().int().min(1).max(FIND_JOBS_MAX_LIMIT).optional(),
    })
    .strict(),
  /** One job's splits, their timelines and its priority changes: answers `JobDetail`. Read-only. */
  jobDetail: z
    .object({ ...base, type: z.literal('jobDetail'), jobId: z.number().int().min(0) })
    .strict(),
  /**
   * Replaces every tenant's weight under `fair` (the library's `setTenantWeights`): those named
   * get theirs, every other tenant 1. Answers `TenantWeights`.
   */
  setTenantWeights: z
    .object({
      ...base,
      type: z.literal('setTenantWeights'),
      weights: tenantWeightsSchema,
    })
    .strict(),
  /** The tenant weights now: answers `TenantWeights`. Read-only. */
  tenantWeights: z.object({ ...base, type: z.literal('tenantWeights') }).strict(),
} as const;

export type CommandType = keyof typeof commandSchemas;
export const COMMAND_TYPES = Object.keys(commandSchemas) as CommandType[];
export const commandSchema = z.discriminatedUnion('type', [
  commandSchemas.configure,
  commandSchemas.setPolicy,
  commandSchemas.setWorkers,
  commandSchemas.submitJob,
  commandSchemas.cancelJob,
  commandSchemas.reprioritize,
  commandSchemas.interruptSplit,
  commandSchemas.pause,
  commandSchemas.resume,
  commandSchemas.loadWorkload,
  commandSchemas.runPreset,
  commandSchemas.snapshot,
  commandSchemas.setSpeed,
  commandSchemas.configureGraph,
  commandSchemas.compare,
  commandSchemas.cancelCompare,
  commandSchemas.cancelAll,
  commandSchemas.resetStats,
  commandSchemas.findJobs,
  commandSchemas.jobDetail,
  commandSchemas.setBackend,
  commandSchemas.setTenantWeights,
  commandSchemas.tenantWeights,
]);
export type Command = z.infer<typeof commandSchema>;
export type CommandOf<T extends CommandType> = z.infer<(typeof commandSchemas)[T]>;

export type CommandOk = { ok: true; id?: string | number } & Record<string, unknown>;
export interface CommandError {
  ok: false;
  id?: string | number;
  error: ErrorInfo;
}
export type CommandResult = CommandOk | CommandError;

/**
 * The tenant weights under `fair` (`setTenantWeights` and `tenantWeights` answer it): those other
 * than 1, by name, and how many times they were set (`Frame.tenantWeightsVersion`).
 */
export interface TenantWeights {
  weights: Record<string, number>;
  version: number;
}

/** A graph run as `runPreset` / `loadWorkload` started it (frames name it by `jobId`). */
export interface GraphRunStarted {
  readonly jobId: number;
  readonly name: string;
  readonly executor: string;
  readonly policy: string;
  readonly graphs: number;
  readonly nodes: number;
}

/** What `runPreset` and `loadWorkload` answer in `result`: the workload now running. */
export interface WorkloadStarted {
  readonly workload: string;
  /** A graph workload: its run. */
  readonly graph?: GraphRunStarted;
  /** threads: how a preset was fitted to this machine's cores (a note for the user). */
  readonly fitted?: string;
}

/**
 * What each command answers when it succeeds, besides `ok` and `id`: the one definition the host
 * (engine/host/session/run-command.ts) answers by and clients read by, so neither casts.
 */
export interface CommandResults {
  configure: { config: EngineConfig };
  setPolicy: { policy: PolicyName; config: EngineConfig };
  setWorkers: { workers: number; config: EngineConfig };
  submitJob: { jobId: number; taskIds: number[] };
  cancelJob: { jobId: number };
  reprioritize: { jobId: number; priority: number };
  interruptSplit: { splitId: number; jobId: number; workerId: number };
  pause: { paused: true };
  resume: { paused: false };
  /** `null` from a host whose loader reports nothing. */
  loadWorkload: { result: WorkloadStarted | null };
  runPreset: { result: WorkloadStarted | null };
  snapshot: { snapshot: Snapshot };
  configureGraph: { graphConfig: GraphConfig };
  /** Jobs cancelled; a graph run counts as one. */
  cancelAll: { cancelled: number };
  resetStats: Record<never, never>;
  setSpeed: { speed: number | 'max' };
  findJobs: FindJobsResult;
  jobDetail: JobDetail;
  /** `cancelled`: the old backend's jobs cancelled; `draining`: its live jobs left to finish. */
  setBackend:
    | { backend: BackendName; mode: 'cancel'; cancelled: number }
    | { backend: BackendName; mode: 'drain'; draining: number };
  compare: CompareResultWire;
  /** Whether a compare was running (and is now stopped). */
  cancelCompare: { cancelled: boolean };
  setTenantWeights: TenantWeights;
  tenantWeights: TenantWeights;
}

/** The answer to a command of type `T`. */
export type CommandResultOf<T extends CommandType> =
  ({ ok: true; id?: string | number } & CommandResults[T]) | CommandError;

// ─── frames ─────────────────────────────────────────────────────────────────────────────────

/**
 * One row of the policy's table: an MLFQ level, a PRIO band (`p0-19` …) or the single row of
 * `fifo` / `fair`. Two times, which mean different things (docs/metrics.md):
 * - `scheduledNanos` is the queue's internal level clock: for MLFQ Trino's `levelScheduledTime`,
 *   which the quanta charge but which also jumps when an empty level is caught up on `offer`
 *   (so it is not a measure of service); for other policies the quantum time of the row.
 * - `chargedNanos` is the time actually charged to the row, cumulative since the session (or
 *   run) began: for MLFQ what quanta contributed to each level after the contribution cap, split
 *   across levels when a quantum crosses a threshold (exactly what `updatePriority` adds, never
 *   the catch-up jumps); for other policies the quantum time attributed to the row. Level shares
 *   (the app's share panel, `schedlab run --json` `levels[].share`) are shares of this.
 */
export interface LevelRow {
  level: number;
  label: string;
  depth: number;
  scheduledNanos: number;
  selections: number;
  /** See the interface comment. Optional: added after the first release. */
  chargedNanos?: number;
  /** MLFQ `levelMinPriority` (−1 when unset); null for policies without one. */
  minPriority: number | null;
  /**
   * PRIO only: aging boosts given to this band's splits, cumulative like `chargedNanos` — each
   * time aging re-keys a queued split to a more urgent effective priority counts one, in the band
   * of the split's base priority (docs/metrics.md). Absent for other policies. Optional: added
   * after the first release.
   */
  agingBoosts?: number;
}

/**
 * The name of one queue row across runs compared side by side, from each run's label for it
 * (`L0`, `p0-19`, `fifo`, …), each once: `L0 / fifo` where mlfq's level 0 stands beside fifo's
 * one queue; `L<index>` where no run has such a row.
 */
export function levelRowName(labels: readonly (string | undefined)[], index: number): string {
  const named = [...new Set(labels.filter((x): x is string => x !== undefined))];
  return named.length === 0 ? `L${index}` : named.join(' / ');
}

/**
 * Each row's share of the charged time (`LevelRow.chargedNanos`, or the row's time where a row
 * has none), 0..1, summing to 1 when anything was charged (all 0 otherwise). The one definition
 * of a level share: the app's share panel and `schedlab run --json` `levels[].share` use it.
 */
export function chargedShares(
  rows: readonly { chargedNanos?: number; scheduledNanos: number }[],
): number[] {
  const charged = rows.map((r) => r.chargedNanos ?? r.scheduledNanos);
  const total = charged.reduce((a, b) => a + b, 0);
  return charged.map((c) => (total > 0 ? c / total : 0));
}

/**
 * `retiring`: beyond a lowered worker count, finishing its quantum; `starting`: within the count
 * but not yet taking work (booting, or replacing a worker that died, after its restart backoff).
 */
export type WorkerState = 'idle' | 'running' | 'retiring' | 'starting';
export interface WorkerRow {
  id: number;
  state: WorkerState;
  splitId: number | null;
  jobId: number | null;
  /** Backend time (ns) the current quantum started; null when idle. */
  sinceNanos: number | null;
  /** The cluster backend: the worker node (its `--name`) this worker id belongs to now. */
  node?: string;
}

export interface Counters {
  /** Jobs: submitted = succeeded + failed + cancelled + rejected + live, always. */
  submitted: number;
  succeeded: number;
  failed: number;
  cancelled: number;
  rejected: number;
  live: number;
  /** Splits by state right now. */
  splitsWaiting: number;
  splitsQueued: number;
  splitsRunning: number;
  splitsBlocked: number;
  splitsRetrying: number;
  /** Cumulative. */
  splitsSucceeded: number;
  splitsFailed: number;
  splitsCancelled: number;
  /** Splits refused by `addSplits` because the bounded queue was full. */
  rejectedSplits: number;
  quanta: number;
  retries: number;
  /**
   * Worker time of ended quanta (as measured where they ran) plus the time so far of the quanta
   * running now (from their dispatch), so a worker that never ends its quantum counts as busy.
   * Never decreases.
   */
  busyNanos: number;
  /** Time past the quantum, counted the same way: ended quanta plus those running now. */
  overrunNanos: number;
  /**
   * Quantum ends the executor ignored: the backend reported a split it had not started on that
   * worker (a backend bug; 0 when all is well). Optional: added after the first release.
   */
  staleEnds?: number;
  /**
   * Quanta that ended after overrunning their quantum by more than `runawayAfterMs` (runaway
   * splits, counted once per quantum as it ends). Optional: added with the hard limit.
   */
  runawayQuanta?: number;
  /** Quanta the threads backend killed (`hardKillAfterMs`). Optional: added with the hard limit. */
  killedQuanta?: number;
  /**
   * CPU time the workers' threads used in ended quanta, next to their wall time (`busyNanos`
   * counts the same quanta's wall time, plus running ones). Threads on Linux only; absent where
   * no quantum measured it (the simulator). A user module's quantum that follows one shorter than
   * 1 ms on its worker is not measured (two clock reads would cost more than a tiny task).
   */
  cpuNanos?: number;
}

/**
 * A split running now whose quantum has overrun it by more than `runawayAfterMs` (Trino's runaway
 * split; its task id is what Trino's stuck-split check reports).
 */
export interface RunawaySplit {
  workerId: number;
  splitId: number;
  taskId: number;
  jobId: number;
  /** How far past its quantum it has run so far (ms). */
  overrunMs: number;
}

/**
 * A live task under Trino's split concurrency controller (`initialSplitConcurrency` set): how
 * many leaf splits it runs (admitted, not ended) and may run (`target`), and its output buffer's
 * utilisation, which moves the target (docs/metrics.md).
 */
export interface TaskConcurrencyRow {
  taskId: number;
  jobId: number;
  class: string;
  runningLeaves: number;
  waitingLeaves: number;
  target: number;
  /** 0..1, 3 decimals; 0 for a task without an output buffer. */
  utilization: number;
}

/**
 * Trino's executor statistics (docs/metrics.md, "Executor statistics"), cumulative since the
 * session or run began.
 */
export interface ExecutorStatsRow {
  /** Leaf splits admitted (not ended): now, the most at once, and the time-weighted mean. */
  leafSplits: { now: number; max: number; mean: number };
  /** Wall time (ms) of each quantum that ended blocked (Trino's `blockedQuantaWallTime`). */
  blockedQuantumWallMs: Percentiles;
  /** Wall time (ms) of each quantum that did not (`unblockedQuantaWallTime`). */
  unblockedQuantumWallMs: Percentiles;
  /**
   * Tasks per level (index = level) of their scheduled time by the configured thresholds: live
   * now (`runningTasksLevelN`), and ended, at the level they ended at (`completedTasksLevelN`).
   */
  tasksPerLevel: { running: number[]; completed: number[] };
}

export interface Percentiles {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/** Milliseconds; keyed by job class or by priority band label (`p0-19` …). */
export interface PercentileTable {
  byClass: Record<string, Percentiles>;
  byBand: Record<string, Percentiles>;
}

/** A span's `outcome` column indexes this list (`shared/lib/outcomes.ts`). */
export const SPAN_OUTCOMES = QUANTUM_OUTCOMES;

/** Gantt spans, columnar (the one span ring's read, `shared/lib/span-ring.ts`). */
export type { SpanColumns };

export type GraphRunState = 'starting' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A graph node's states (docs/design.md §3.4), in the order the app lists them. */
export const NODE_STATES = [
  'pending',
  'ready',
  'running',
  'succeeded',
  'failed',
  'skipped',
  'cancelled',
] as const;
export type NodeStateName = (typeof NODE_STATES)[number];

/** Figures of a finished graph run (docs/design.md §3.4), ms; over every graph of the run. */
export interface GraphMetricsRow {
  workers: number;
  makespanMs: number;
  workMs: number;
  criticalPathMs: number;
  lowerBoundMs: number;
  efficiency: number;
  grahamRatio: number;
  utilization: number;
  steals: number;
  /**
   * Real threads: `workMs` and `criticalPathMs` are measured (run times), and so are the lower
   * bound and efficiency made from them; these are the graph's own figures from its node costs.
   * Optional: added after the first release.
   */
  declaredWorkMs?: number;
  declaredCriticalPathMs?: number;
}

/** The graph run of a session (the latest one, kept after it ends). */
export interface GraphFrame {
  /** `job` of its spans. */
  jobId: number;
  name: string;
  state: GraphRunState;
  executor: GraphExecutorKind;
  policy: GraphPolicy;
  errorMode: GraphErrorMode;
  /** The graph running now (0-based) of `graphs` run one after the other. */
  graph: number;
  graphs: number;
  /** Node states over every graph of the run. */
  nodes: { total: number } & Record<NodeStateName, number>;
  /** Backend time since the run started (ms). */
  makespanMs: number;
  /**
   * Spans are a sample: one node in `sampleEvery` (the stealing executor; its spans arrive when
   * each graph ends). 1 = every quantum is shown.
   */
  sampleEvery: number;
  /** Graph spans no frame carried (bounded buffers). */
  spansDropped: number;
  /** Null until the run ends. */
  metrics: GraphMetricsRow | null;
  /** Why the run failed or was cancelled (root cause node, or the error). */
  error: string | null;
  /**
   * The run's edges as `[graph, from, to]` (graph index in the run = a graph span's `task`; node
   * indices = its `split`), for flow events in a trace export. Present only while the run has at
   * most `GRAPH_FRAME_MAX_EDGES` edges (frames stay small). Optional: added after the first release.
   */
  edges?: [number, number, number][];
}

/** Most graph edges a frame carries (`GraphFrame.edges`). */
export const GRAPH_FRAME_MAX_EDGES = 512;

export interface EngineEvent {
  timeNanos: number;
  /** `config`, `policy`, `workers`, `pause`, `resume`, `cancel`, `reprioritize`, `workload`, … */
  kind: string;
  detail: string;
}

export interface JobRow {
  id: number;
  class: string;
  /**
   * A live job is `queued` until one of its splits starts a quantum on a worker, then `running`
   * until it ends — also while its splits wait in the queue again between quanta (docs/jobs.md
   * "Job states"). `queued`: added with it; older hosts say `running` for every live job.
   */
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'rejected';
  basePriority: number;
  splits: number;
  splitsDone: number;
  scheduledNanos: number;
  submitNanos: number;
  endNanos: number | null;
  /**
   * Why an ended job failed, was cancelled or rejected, for people (`worker lost: exit code 7`;
   * a job of several splits names the one that failed, `split 7: worker lost: exit code 7`). In
   * frames and `findJobs` at most `JOB_ROW_TEXT_MAX` characters; `JobDetail.job` has it whole (as
   * far as the engine keeps it: a thrown `Error`'s name and message, as the run's rejection says
   * them). Optional: added after the first release.
   */
  error?: string;
  /**
   * For a job failed by what a user module threw: that value's own `code` (`E_PROBE`; the
   * library's rejection has it as `cause.code`), a string cut to 64 characters. Optional: added
   * after `error`.
   */
  causeCode?: string | number;
  /**
   * The catalogue code of `error`: `KERNEL_FAILED`, `WORKER_LOST`, `CANCELLED`, `QUEUE_FULL`; a
   * library run cancelled by its `timeoutMs` is `TIMEOUT` (its signal's abort: `CANCELLED`, the
   * abort's reason in `error`).
   */
  errorCode?: ErrorCode;
  /** The tenant it was submitted for (`JobSpec.tenant`). Optional: added with `findJobs`. */
  tenant?: string;
  /**
   * What a one-split job's user module returned, as JSON cut to `JOB_ROW_TEXT_MAX` characters
   * (a cut one ends in `…`). Absent for built-in kernels, the sim and jobs of many splits.
   */
  result?: string;
}

/** Longest `JobRow.error` / `JobRow.result` text a frame carries (rows stay small). */
export const JOB_ROW_TEXT_MAX = 200;

/** docs/design.md §3.2: an urgent band waits too long, or some split has waited past starvation. */
export interface Alarm {
  /**
   * `stuck-worker`: a split has overrun its quantum by more than `runawayAfterMs`.
   * `cluster-redis`: the cluster backend's Redis is unreachable, stalled or refusing writes.
   */
  kind: 'urgent-wait' | 'starvation' | 'stuck-worker' | 'cluster-redis';
  message: string;
}

export interface Frame {
  type: 'frame';
  seq: number;
  timeNanos: number;
  backend: 'threads' | 'sim';
  policy: PolicyName;
  paused: boolean;
  levels: LevelRow[];
  workers: WorkerRow[];
  counters: Counters;
  latency: PercentileTable;
  wait: PercentileTable;
  /** Jain's index over live jobs' share of service (scheduled time / age); 1 = perfectly fair. */
  fairness: { jain: number; jobs: number };
  /** Busy time / (workers × interval) since the previous frame, 0..1. */
  utilization: number;
  spans: SpanColumns;
  /** Spans overwritten in the ring before any frame carried them (cumulative). */
  spansDropped: number;
  config: EngineConfig;
  /** Events since the previous frame (knob changes, for timeline markers). */
  events: EngineEvent[];
  /**
   * Events overwritten in the event ring before any frame carried them (cumulative; a burst of
   * more changes than the ring holds between two frames). Optional: added after the first release.
   */
  eventsDropped?: number;
  /** Live jobs first, then recently ended ones; bounded. */
  jobs: JobRow[];
  /** Alarms raised now (empty when all is well). Optional: added after the first release. */
  alarms?: Alarm[];
  /** Longest current wait (ms) of a split in the ready queue. */
  oldestWaitMs?: number;
  /**
   * Backend time (ns) the figures over every live run were taken at — `wait` and `queued` with
   * the waits in progress, `oldestWaitMs`, `fairness`, `fairGroups`, `warnings`: before
   * `timeNanos` while a pass over many live runs is spread over frames (docs/metrics.md "How
   * fresh…"). Optional: added with the spread passes.
   */
  figuresAtNanos?: number;
  /** Trino's executor statistics. Optional: added with them. */
  executorStats?: ExecutorStatsRow;
  /**
   * Trino's split concurrency controller, while it is on: the first 64 live tasks by id.
   * Optional: added with the controller.
   */
  taskConcurrency?: TaskConcurrencyRow[];
  /** Runaway splits now, at most one per worker. Optional: added with the hard limit. */
  runawaySplits?: RunawaySplit[];
  /**
   * Leaf splits' queued time (ms): creation → admission to the ready queue, Trino's
   * `splitQueuedTime`; `wait` starts after it. Optional: added after the first release.
   */
  queued?: PercentileTable;
  /** The session's latest graph run (null before any). Optional: added with graph runs. */
  graph?: GraphFrame | null;
  /** Graph policy / executor overrides now (`configureGraph`). */
  graphConfig?: GraphConfig;
  /** Sim backend: virtual ms per real ms of the live loop, or `max` (as fast as it goes). */
  speed?: number | 'max';
  /**
   * Backend time (ns) where the `latency` and `wait` tables' window starts: the later of 60 s
   * (`STATS_WINDOW_SECONDS`) ago and the last reset (`resetStats`, or a preset / workload change).
   */
  statsSinceNanos?: number;
  /**
   * Live jobs that look wrong now (`WARNING_RULES`), at most `FRAME_MAX_WARNINGS`; the rest are
   * counted in `warningsMore`. Optional: added with the warnings panel.
   */
  warnings?: JobWarning[];
  warningsMore?: number;
  /** Under the `fair` policy only: service per fairness group. Optional: added later. */
  fairGroups?: FairGroups;
  /**
   * The tenants the executor holds, at most `FRAME_MAX_TENANTS` (those with live jobs first, then
   * the most recently idle); absent while it holds none. Optional: added with the tenants panel.
   */
  tenants?: TenantRow[];
  /** Tenants held beyond those in `tenants`. */
  tenantsMore?: number;
  /**
   * How many times the tenant weights were set (`TenantWeights.version`): a client showing them
   * reads them again (`tenantWeights`) when it changes. Optional: added with `setTenantWeights`.
   */
  tenantWeightsVersion?: number;
  /**
   * The app's live session: the backend it runs on by name (`backend` says `threads` for the
   * cluster, whose workers are threads on its nodes). Optional: added with `setBackend`.
   */
  backendName?: BackendName;
  /** A `setBackend` with `drain` under way: where to, and the old backend's live jobs left. */
  backendSwitch?: { to: BackendName; live: number };
  /**
   * The latency and wait samples recorded since the previous frame, as the shared histogram's
   * buckets (`shared/lib/histogram.ts`), so a client can recompute the tables and draw their
   * distributions over any range of frames it holds. Absent from a snapshot's own frame (it
   * consumes nothing). Optional: added with time ranges.
   */
  samples?: FrameSamples;
}

/** A frame's new samples: job latency (succeeded jobs) and ended waits. */
export interface FrameSamples {
  latency: SampleCounts;
  wait: SampleCounts;
}

/** One fairness group's service under the `fair` policy (`FairGroups`; docs/metrics.md). */
export interface FairGroupRow {
  /** `split-40`, `task-12`, `job-3`, `tenant-acme`. */
  key: string;
  kind: 'split' | 'task' | 'job' | 'tenant';
  /** For people: `#3 scan` (job), `#3.1 scan` (task 1 of job 3), `acme` (tenant), `split 40 · #3 scan`. */
  label: string;
  /** The class of the group's (first seen) live job. */
  cls: string;
  /** Its scheduled time so far plus its quanta running now (ns). */
  serviceNanos: number;
  /** A tenant's weight under `fair`, when not 1: its fair share is weight / the weights' sum. */
  weight?: number;
}

/**
 * The `fair` policy's service per fairness group, at the grouping it uses now (`fairness`: split,
 * task, or query = job, or the job's tenant). Only groups with live work count. Shares are
 * `serviceNanos / totalNanos`.
 */
export interface FairGroups {
  /** What a group is now: `tenant` when every group is a tenant, `job` under query otherwise. */
  unit: 'split' | 'task' | 'job' | 'tenant';
  /** Groups with live work. */
  count: number;
  /** Service of all of them (ns). */
  totalNanos: number;
  /** The `FAIR_GROUPS_SHOWN` with the most service, most first. */
  groups: FairGroupRow[];
  /** The rest, summed. */
  others: { groups: number; serviceNanos: number };
  /** Live jobs' service summed per job class (whatever the grouping), most first. */
  byClass: { cls: string; jobs: number; serviceNanos: number }[];
  /**
   * Jain's index over the groups, x = service / age since the group's oldest live job began,
   * divided by the group's weight.
   */
  jain: number;
  /** Groups with a weight other than 1; absent when none. Optional: added with tenant weights. */
  weighted?: number;
}

/**
 * One tenant (`JobSpec.tenant`, the library's `run(…, { tenant })`) as the executor holds it: made
 * on its first job, kept while it has live jobs and for a while after (docs/metrics.md "tenants").
 */
export interface TenantRow {
  readonly name: string;
  /** Time of all its quanta since it was first seen (or last forgotten), ns. */
  readonly scheduledNanos: number;
  /** Its jobs not ended: waiting or running. */
  readonly liveJobs: number;
  /** Its jobs rejected at submission, since it was first seen (or last forgotten). */
  readonly rejectedJobs: number;
  /** Its share under `fair` (1 unless `setTenantWeights` gave another). */
  readonly weight: number;
}

/** Tenants a frame names (`Frame.tenants`): those with live jobs first; the rest are counted. */
export const FRAME_MAX_TENANTS = 20;

/** Fair groups a frame names (`FairGroups.groups`); the rest are summed. */
export const FAIR_GROUPS_SHOWN = 8;

/** How far back a frame's `latency` and `wait` tables reach at most (s). */
export const STATS_WINDOW_SECONDS = 60;

/**
 * One frame's chart values (queue depth, scheduled time and selections per level, utilization,
 * job counters), as the host keeps them for `Snapshot.history`.
 */
export interface HistoryPoint {
  seq: number;
  timeNanos: number;
  depth: number[];
  scheduledNanos: number[];
  selections: number[];
  utilization: number;
  succeeded: number;
  submitted: number;
  live: number;
  /** Per row, cumulative (see `LevelRow.chargedNanos`). Optional: added after the first release. */
  chargedNanos?: number[];
  /** Per row, cumulative (see `LevelRow.agingBoosts`); PRIO only. Optional: added later. */
  agingBoosts?: number[];
  /** The policy when the point was taken: what its rows meant then. */
  policy?: PolicyName;
  /** The row labels when the point was taken (`L0` …, `p0-19` …, `fifo`, `fair`). */
  labels?: string[];
  /** The frame's `samples`, so a reconnecting client's ranges cover the history too. */
  samples?: FrameSamples;
}

/** A frame's chart series as one history point (the host's ring and the renderer's charts). */
export function historyPoint(frame: Frame): HistoryPoint {
  const c = frame.counters;
  return {
    seq: frame.seq,
    timeNanos: frame.timeNanos,
    depth: frame.levels.map((l) => l.depth),
    scheduledNanos: frame.levels.map((l) => l.scheduledNanos),
    selections: frame.levels.map((l) => l.selections),
    utilization: frame.utilization,
    succeeded: c.succeeded,
    submitted: c.submitted,
    live: c.live,
    // Only what the host reported: a level clock passed off as charged time would mislead.
    ...(frame.levels.every((l) => l.chargedNanos !== undefined)
      ? { chargedNanos: frame.levels.map((l) => l.chargedNanos!) }
      : {}),
    ...(frame.levels.every((l) => l.agingBoosts !== undefined)
      ? { agingBoosts: frame.levels.map((l) => l.agingBoosts!) }
      : {}),
    policy: frame.policy,
    labels: frame.levels.map((l) => l.label),
    ...(frame.samples === undefined ? {} : { samples: frame.samples }),
  };
}

/**
 * The numbers a frame's `samples` hold (bucket pairs and their totals): what a chart point costs
 * beyond its few series, from a few to tens of thousands (40 classes at 100k runs/s).
 */
export function samplesCost(samples: FrameSamples | null | undefined): number {
  if (samples === undefined || samples === null) return 0;
  let n = 0;
  for (const counts of [samples.latency, samples.wait]) {
    for (const table of [counts.byClass, counts.byBand]) {
      for (const key in table) n += table[key]!.buckets.length + 2;
    }
  }
  return n;
}

/** How far back `Snapshot.history` reaches (s of frames at the session's frame rate). */
export const HISTORY_SECONDS = 60;
/**
 * The most sample numbers (`samplesCost`) the host's history holds: past it, the oldest points
 * go, so the history reaches less far back than `HISTORY_SECONDS` rather than grow (a console at
 * 240 Hz held 400 MB, and its snapshots outgrew what a client may be sent).
 */
export const HISTORY_SAMPLES_BUDGET = 2_000_000;

export interface Snapshot {
  type: 'snapshot';
  frame: Frame;
  /**
   * The chart values of the last frames, oldest first: at most `HISTORY_SECONDS` × `frameHz`,
   * so a client that (re)connects draws its charts' window at once instead of starting empty.
   * The last point may share `frame.seq` (the snapshot's frame is that frame's state now).
   * Optional: added after the first release.
   */
  history?: HistoryPoint[];
  /** Every span still held in the ring, for a client that just connected. */
  spans: SpanColumns;
  /** Every event still held in the event ring. */
  events: EngineEvent[];
  policies: PolicyName[];
  frameHz: number;
  /** The backends `setBackend` may switch to here. Optional: added with `setBackend`. */
  backends?: BackendName[];
  /**
   * The presets `runPreset` and `compare` accept here, and which are task graphs (a compare
   * column's policy there orders ready nodes). Optional: added after the first release.
   */
  presets?: PresetInfo[];
  /**
   * The host refuses every command that acts (`READ_ONLY`): a service's console served without
   * `allowControl` (docs/library.md). The app shows it and disables its controls. Optional:
   * absent, the host takes commands.
   */
  readOnly?: boolean;
}

/** One preset a host offers (snapshot `presets`). */
export interface PresetInfo {
  name: string;
  graph: boolean;
}

export type ServerMessage = Frame | Snapshot | ({ type: 'result' } & CommandResult);
