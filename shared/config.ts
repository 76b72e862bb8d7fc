/**
 * The engine's configuration (docs/design.md §3.1, §3.2, §4): one zod schema with every knob's range
 * and default. The UI, the CLI and config files speak milliseconds; the engine converts to integer
 * nanoseconds once (`engine/runtime/executor/settings.ts`). Every knob is live-changeable through
 * `Executor.configure` / the `configure` command.
 */
import { z } from 'zod';
import { MAX_QUEUED } from './limits.ts';

export const POLICY_NAMES = ['mlfq', 'priority', 'fifo', 'fair'] as const;
export const FAIRNESS_MODES = ['split', 'task', 'query'] as const;
/** What a split running when its job is cancelled does (docs/trino-experiments.md). */
export const CANCEL_RUNNING_MODES = ['cooperative', 'finish-quantum'] as const;
/** Which time of a quantum the queue charges (docs/trino-experiments.md). */
export const CHARGE_TIME_MODES = ['wall', 'cpu'] as const;
export const LEVEL_COUNT = 5;

export const policyNameSchema = z.enum(POLICY_NAMES);
export const fairnessSchema = z.enum(FAIRNESS_MODES);

const ms = (max: number) => z.number().finite().min(0).max(max);

/**
 * A task's output buffer as the split concurrency controller reads it (its utilisation): leaf
 * splits fill it while they run, a consumer drains it (engine/core/concurrency/output-buffer.ts).
 */
export const outputBufferSchema = z
  .object({
    /** Pages it holds. */
    capacity: z.number().finite().gt(0).max(1e12),
    /** Pages a leaf split of the task adds per second it runs. */
    producedPerSec: z.number().finite().min(0).max(1e12),
    /** Pages the consumer takes per second. */
    consumedPerSec: z.number().finite().min(0).max(1e12),
  })
  .strict();

/** Five thresholds in ms: the first is 0, each strictly larger than the one before. */
export const levelThresholdsSchema = z
  .array(z.number().finite().min(0).max(86_400_000))
  .length(LEVEL_COUNT)
  .superRefine((t, ctx) => {
    if (t[0] !== 0) ctx.addIssue({ code: 'custom', path: [0], message: 'must be 0' });
    for (let i = 1; i < t.length; i++) {
      if ((t[i] ?? 0) <= (t[i - 1] ?? 0)) {
        ctx.addIssue({ code: 'custom', path: [i], message: 'must be > the previous threshold' });
      }
    }
  });

export const engineConfigShape = {
  /** Which ready queue decides (docs/design.md §3). */
  policy: policyNameSchema,
  /** Worker slots (threads or simulated). */
  workers: z.number().int().min(1).max(256),
  /** Time slice per dispatch. */
  quantumMs: z.number().finite().min(0.01).max(600_000),
  /** MLFQ: each busy level gets m times the time of the next. */
  levelTimeMultiplier: z.number().finite().gt(1).max(16),
  levelThresholdsMs: levelThresholdsSchema,
  levelContributionCapMs: ms(86_400_000),
  fairness: fairnessSchema,
  /** Trino admission: leaf splits started per task before round-robin. */
  guaranteedPerTask: z.number().int().min(1).max(1024),
  /** Trino admission: total running splits to aim for; null = 2 × workers. */
  minDrivers: z.number().int().min(1).max(100_000).nullable(),
  /** Trino admission: most leaf splits one task runs; a task may set a lower one of its own. */
  maxDriversPerTask: z.number().int().min(1).max(100_000),
  /** PRIO aging (docs/design.md §3.2). */
  aging: z.boolean(),
  agingAfterMs: ms(86_400_000),
  agingStepMs: z.number().finite().min(0.001).max(86_400_000),
  agingCap: z.number().int().min(0).max(100),
  agingIntervalMs: z.number().finite().min(1).max(3_600_000),
  /** PRIO: preempt at the quantum; off (default), a dispatched task runs to completion or until it blocks. */
  preemptive: z.boolean(),
  /** PRIO quota alternative to aging; 0 = off. */
  quotaBurst: z.number().int().min(0).max(1_000_000),
  /** Splits waiting (admission, queued, blocked, retrying) allowed before jobs are rejected. */
  maxQueued: z.number().int().min(1).max(MAX_QUEUED),
  /**
   * Most jobs one tenant may have live (submitted and not ended: waiting or running); its next
   * job is rejected (`QUEUE_FULL`, naming this knob) while other tenants' jobs are still taken,
   * so one tenant's flood cannot fill `maxQueued` for everyone. Jobs without a tenant are not
   * counted. Lowering it rejects only later jobs. null (default): `maxQueued` alone bounds it.
   */
  maxLivePerTenant: z.number().int().min(1).max(MAX_QUEUED).nullable(),
  /** First retry waits this long; each further retry multiplies it, up to the max. */
  retryBackoffMs: ms(3_600_000),
  retryBackoffMultiplier: z.number().finite().min(1).max(100),
  retryBackoffMaxMs: ms(3_600_000),
  /**
   * Threads: the hard limit on a quantum that will not stop (a user module looping without
   * yielding, or awaiting a promise that never settles). A user module's quantum that overruns its
   * quantum by more than this has its worker terminated and replaced, and its split fails or
   * retries with `QUANTUM_OVERRUN_KILLED`; a cancelled split still running this long after its
   * cancel is killed the same way. Built-in kernels stop by themselves and are not killed for an
   * overrun. 0 = auto: max(10 × quantumMs, 5000). The simulator's quanta cannot hang: no limit.
   */
  hardKillAfterMs: ms(86_400_000),
  /**
   * A split whose running quantum has overrun its quantum by more than this is a runaway split
   * (Trino's runaway split count): counted and listed in frames and the run report, and a
   * `stuck-worker` alarm is raised. Past `hardKillAfterMs` (threads, user modules) it is killed.
   */
  runawayAfterMs: ms(86_400_000),
  /**
   * A split running when its job is cancelled: `cooperative` stops it at its next unit of work;
   * `finish-quantum` lets it run out its quantum and charges all of it, as Trino's `removeTask`.
   */
  cancelRunning: z.enum(CANCEL_RUNNING_MODES),
  /**
   * Trino's split concurrency controller: each task starts allowed this many running leaf splits,
   * a target that moves with its output buffer's utilisation (docs/trino-experiments.md). null
   * (default): off, a task's leaf splits are limited only by `maxDriversPerTask`.
   */
  initialSplitConcurrency: z.number().int().min(1).max(100_000).nullable(),
  /** The controller's adjustment interval, in the task's quantum time (Trino's default 100 ms). */
  splitConcurrencyAdjustMs: ms(3_600_000),
  /**
   * What a quantum charges to the queue (level time, priority, fair shares): `wall` (default) its
   * scheduled wall time, as Trino does; `cpu` the CPU time its worker thread used, where the
   * backend measures it (threads on Linux), else its wall time.
   */
  chargeTime: z.enum(CHARGE_TIME_MODES),
};

export const engineConfigSchema = z
  .object(engineConfigShape)
  .strict()
  .superRefine((c, ctx) => {
    // Trino's executor refuses this pair at construction (docs/trino-experiments.md).
    if (c.guaranteedPerTask > c.maxDriversPerTask) {
      ctx.addIssue({
        code: 'custom',
        path: ['guaranteedPerTask'],
        message: `${c.guaranteedPerTask} must be <= maxDriversPerTask ${c.maxDriversPerTask}`,
      });
    }
  });
/** Every field optional: what `configure` accepts. */
export const engineConfigPatchSchema = z.object(engineConfigShape).partial().strict();

export type PolicyName = z.infer<typeof policyNameSchema>;
export type FairnessMode = z.infer<typeof fairnessSchema>;
export type EngineConfig = z.output<typeof engineConfigSchema>;
export type EngineConfigPatch = Partial<EngineConfig>;

export const DEFAULT_ENGINE_CONFIG: EngineConfig = Object.freeze({
  policy: 'mlfq',
  workers: 4,
  quantumMs: 1000,
  levelTimeMultiplier: 2,
  levelThresholdsMs: [0, 1000, 10_000, 60_000, 300_000],
  levelContributionCapMs: 30_000,
  fairness: 'task',
  guaranteedPerTask: 3,
  minDrivers: null,
  maxDriversPerTask: 1000,
  aging: true,
  agingAfterMs: 60_000,
  agingStepMs: 30_000,
  agingCap: 20,
  agingIntervalMs: 1000,
  preemptive: false,
  quotaBurst: 0,
  maxQueued: 100_000,
  maxLivePerTenant: null,
  retryBackoffMs: 100,
  retryBackoffMultiplier: 2,
  retryBackoffMaxMs: 10_000,
  hardKillAfterMs: 0,
  runawayAfterMs: 1000,
  cancelRunning: 'cooperative',
  initialSplitConcurrency: null,
  splitConcurrencyAdjustMs: 100,
  chargeTime: 'wall',
});

/** Parses a possibly partial config document, filling in the defaults. */
export function parseEngineConfig(input: unknown): EngineConfig {
  const patch = engineConfigPatchSchema.parse(input ?? {});
  return engineConfigSchema.parse({ ...DEFAULT_ENGINE_CONFIG, ...patch });
}
