/**
 * What a job is (docs/design.md §1): a job of tasks of splits, each split a piece of work for a
 * kernel. The zod schemas here are the one definition: the protocol's `submitJob` command, the
 * executor's `submitJob`/`addSplits` checks and the workload document's job classes all use them,
 * and the engine's `JobSpec`, `SplitSpec` and `SplitWork` types are inferred from them. Each
 * field's limit is said once, here.
 */
import { z } from 'zod';
import { outputBufferSchema } from './config.ts';
import { boundedArray, nestsDeeperThan } from './lib/bounds.ts';
import { PRIORITY_MAX, PRIORITY_MIN } from './lib/priority-bands.ts';
import {
  MAX_CALLS_PER_SPLIT,
  MAX_EXPORT_CHARS,
  MAX_JSON_DEPTH,
  MAX_MODULE_CHARS,
  MAX_WORK_MS,
} from './limits.ts';

export const KERNEL_NAMES = ['hash', 'sort', 'compress', 'matmul', 'spin', 'sleep'] as const;

/** A job's class: a label for reports (latency per class) and the Gantt's span names. */
export const MAX_CLASS_NAME = 100;
/** Failed attempts a split (or a graph node) may retry. */
export const MAX_RETRIES = 100;
/** A tenant's name (the library's `run(…, { tenant })`). */
export const MAX_TENANT_NAME = 200;
/** A task's own limit on running leaf splits; the engine's `maxDriversPerTask` has the same. */
export const MAX_DRIVERS_PER_TASK = 100_000;

export const classNameSchema = z.string().min(1).max(MAX_CLASS_NAME);
/** PRIO priority: an integer, smaller = more urgent (shared/lib/priority-bands.ts). */
export const prioritySchema = z.number().int().min(PRIORITY_MIN).max(PRIORITY_MAX);
export const retriesSchema = z.number().int().min(0).max(MAX_RETRIES);
/** The bound comes before `int`, so a huge value names the limit, not the safe-integer range. */
export const maxDriversSchema = z.number().min(1).max(MAX_DRIVERS_PER_TASK).int();

/** A length of work (ns): a day at most, as in a workload document (`MAX_WORK_MS`). */
const workNanos = z
  .number()
  .finite()
  .min(0)
  .max(MAX_WORK_MS * 1e6);

/** A user's own function: `import(module)[exportName](input, ctx)`. */
export const moduleRefSchema = z
  .object({
    module: z.string().min(1).max(MAX_MODULE_CHARS),
    exportName: z.string().min(1).max(MAX_EXPORT_CHARS).optional(),
  })
  .strict();
export const kernelSchema = z.union([z.enum(KERNEL_NAMES), moduleRefSchema]);

/**
 * Copies `frozenInput` made and froze, each found no deeper than `MAX_JSON_DEPTH`: no one can
 * change them, so each is walked once. A class's input is shared by every split it draws and each
 * drawn job is checked again by the executor; walking it for each split cost 0.3 s a split for an
 * input of 600,000 objects. An input a caller holds is walked at every check: they may change it.
 */
const frozenInputs = new WeakSet<object>();

/**
 * A split's input for a user's module: any value, nested at most `MAX_JSON_DEPTH` deep. Deeper
 * overflowed the stack of whatever copied it (the module check, a worker's message).
 */
export const workInputSchema = z.unknown().superRefine((input, ctx) => {
  if (typeof input !== 'object' || input === null || frozenInputs.has(input)) return;
  if (nestsDeeperThan(input, MAX_JSON_DEPTH)) {
    const message = `must nest arrays and objects at most ${MAX_JSON_DEPTH} deep`;
    ctx.addIssue({ code: 'custom', message });
  }
});

/**
 * A frozen copy of `input` that `workInputSchema` takes without walking it again, for an input
 * many splits share (a workload class's). An input too deep or one a copy cannot make (a
 * function) is returned as it is: the executor's check, or its worker, refuses it as before.
 */
export function frozenInput(input: unknown): unknown {
  if (typeof input !== 'object' || input === null || frozenInputs.has(input)) return input;
  let copy: unknown;
  try {
    copy = structuredClone(input);
  } catch {
    return input;
  }
  // Frozen as it is walked: each array and plain object, all the walk looks at, so its answer
  // cannot change. A copy found too deep is dropped half frozen.
  if (nestsDeeperThan(copy, MAX_JSON_DEPTH, Object.freeze)) return input;
  frozenInputs.add(copy as object);
  return copy;
}

/** Serializable description of a split's work; crosses the worker boundary as is. */
export const splitWorkSchema = z
  .object({
    kernel: kernelSchema,
    input: workInputSchema.optional(),
    /** Total work, expressed as the time it takes (ns); each time at most a workload's (a day). */
    totalNanos: workNanos,
    perCallNanos: workNanos.gt(0).optional(),
    blockedNanosPerCall: workNanos.optional(),
    /**
     * Fault injection: the chance that a dispatch doing CPU work (not `sleep`) ends `failed`, its
     * work lost. Both backends draw it from their RNG (sim: seeded, so runs stay reproducible;
     * threads: seeded with its `seed`, else `Math.random`).
     */
    failProbability: z.number().min(0).max(1).optional(),
  })
  .strict()
  .superRefine((w, ctx) => {
    if (w.perCallNanos === undefined) return;
    const calls = Math.ceil(w.totalNanos / w.perCallNanos);
    if (calls > MAX_CALLS_PER_SPLIT) {
      const least = Math.ceil(w.totalNanos / MAX_CALLS_PER_SPLIT);
      const message = `must be >= totalNanos / ${MAX_CALLS_PER_SPLIT} (${least}): a split makes at most ${MAX_CALLS_PER_SPLIT} calls, this one ${calls}`;
      ctx.addIssue({ code: 'custom', message, path: ['perCallNanos'] });
    }
  });

export const splitSpecSchema = z
  .object({ kind: z.enum(['leaf', 'intermediate']), work: splitWorkSchema })
  .strict();

export const splitSpecsSchema = boundedArray(splitSpecSchema, 1_000_000);

export const taskSpecSchema = z
  .object({
    splits: splitSpecsSchema,
    /** An open task takes more splits later (`addSplits`) and ends only after `closeTask`. */
    open: z.boolean().optional(),
    /**
     * Its own limit on running leaf splits (Trino's `addTask(…, maxDriversPerTask)`): at most the
     * engine's `maxDriversPerTask`; below `guaranteedPerTask` it also lowers the task's guarantee.
     */
    maxDriversPerTask: maxDriversSchema.optional(),
    /** Its output buffer, for the split concurrency controller (utilisation 0 without one). */
    outputBuffer: outputBufferSchema.optional(),
  })
  .strict();

export const jobSpecSchema = z
  .object({
    class: classNameSchema,
    /** PRIO base priority (smaller = more urgent); default 50. */
    basePriority: prioritySchema.optional(),
    /** Failed attempts a split may retry; default 0. */
    retries: retriesSchema.optional(),
    /**
     * The tenant it is for: under `query` fairness all jobs of a tenant share one fairness group
     * (engine/runtime/executor/records.ts `TenantGroup`). Absent: the job is its own group.
     */
    tenant: z.string().min(1).max(MAX_TENANT_NAME).optional(),
    tasks: boundedArray(taskSpecSchema, 100_000, 1),
  })
  .strict();

/** A tenant's weight under `fair` (its share relative to others, 1 by default). */
export const MIN_TENANT_WEIGHT = 0.01;
export const MAX_TENANT_WEIGHT = 1000;
/** Tenants given a weight at once (as many as the executor remembers idle: tenants.ts). */
export const MAX_TENANT_WEIGHTS = 10_000;

/** Weights by tenant name, each in its range. */
const weightsRecord = z
  .record(z.string(), z.number().finite().min(MIN_TENANT_WEIGHT).max(MAX_TENANT_WEIGHT))
  .superRefine((w, ctx) => {
    // How many is counted before this, on the raw object (`tenantWeightsSchema`).
    const names = Object.keys(w);
    const bad = names.find((n) => n.length === 0 || n.length > MAX_TENANT_NAME);
    if (bad !== undefined) {
      const message = `names a tenant of ${bad.length} characters (1 to ${MAX_TENANT_NAME})`;
      ctx.addIssue({ code: 'custom', message });
    }
  });

/**
 * Every tenant's weight under `fair`, by name: those not named have weight 1. An own `__proto__`
 * key (`JSON.parse` makes one) is refused, naming it: the record, built by assignment, would
 * drop it unchecked, and the weight would be lost silently.
 */
export const tenantWeightsSchema = z
  .unknown()
  .superRefine((raw, ctx) => {
    if (raw === null || typeof raw !== 'object') return;
    if (Object.hasOwn(raw, '__proto__')) {
      const message = "names the tenant '__proto__', which a weights object cannot carry";
      ctx.addIssue({ code: 'custom', message, path: ['__proto__'] });
    }
    // Counted before each weight is checked: a million of them took 3.5 s to refuse.
    const names = Object.keys(raw).length;
    if (names > MAX_TENANT_WEIGHTS) {
      const message = `must name at most ${MAX_TENANT_WEIGHTS} tenants, got ${names}`;
      ctx.addIssue({ code: 'custom', message });
    }
  })
  .pipe(weightsRecord);

/** Weights a line of text names (`weightsText`); the rest are counted. */
const WEIGHTS_NAMED = 5;

/**
 * Tenant weights for people, by name: `gold ×3, silver ×2` (the first five, then `and N more`);
 * empty when there are none. The timeline's `weights` marker and the report's line use it.
 */
export function weightsText(weights: Iterable<readonly [string, number]>): string {
  const all = [...weights].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const named = all.slice(0, WEIGHTS_NAMED).map(([name, w]) => `${name} ×${w}`);
  const more = all.length - named.length;
  return `${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

/** A parsed value as callers hold it: nothing in a spec is changed after it is handed over. */
type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

export type KernelName = (typeof KERNEL_NAMES)[number];
export type ModuleRef = Frozen<z.infer<typeof moduleRefSchema>>;
export type SplitWork = Frozen<z.infer<typeof splitWorkSchema>> & {
  /**
   * What a library run moves to its worker with its first input instead of copying it (its
   * `transferList`: ArrayBuffers, MessagePorts; checked by engine/lib/options.ts). Never in a spec:
   * a workload file has nothing to move.
   */
  readonly transfer?: readonly unknown[];
};
export type SplitSpec = Frozen<z.infer<typeof splitSpecSchema>>;
export type TaskSpec = Frozen<z.infer<typeof taskSpecSchema>>;
export type JobSpec = Frozen<z.infer<typeof jobSpecSchema>>;
