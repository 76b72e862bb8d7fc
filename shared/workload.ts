/**
 * The workload document (docs/design.md §5): a seed plus either job classes with arrival processes,
 * a Trino simulation (its SimulationController: task specifications and a timeline), or a graph.
 * Times are milliseconds here (the engine converts to integer nanoseconds).
 *
 * `parseWorkload` is the only way in: it returns the normalised document (defaults filled in) or
 * throws `INVALID_WORKLOAD` whose message names the field, e.g. `classes[1].arrival.rate must be
 * > 0` (shared/schema-error.ts). Objects are strict, so a misspelt field is an error, not ignored.
 */
import { z } from 'zod';
import {
  MAX_ARRIVAL_RATE,
  MAX_ARRIVALS,
  MAX_CLASSES,
  MAX_SPLITS_PER_JOB,
  MAX_TIMELINE_STEPS,
  MAX_TRINO_OUTSTANDING,
  MAX_WORK_MS,
  MAX_WORKLOAD_MS,
  MAX_WORKLOAD_SPLITS,
  MAX_DESCRIPTION_CHARS,
  MAX_LABEL_CHARS,
  MAX_SEED,
} from './limits.ts';
import { outputBufferSchema } from './config.ts';
import { checkGraphField } from './graph.ts';
import {
  classNameSchema,
  MAX_TENANT_NAME,
  kernelSchema,
  maxDriversSchema,
  prioritySchema,
  retriesSchema,
  tenantWeightsSchema,
  workInputSchema,
} from './job.ts';
import { boundedArray } from './lib/bounds.ts';
import { schemaError } from './schema-error.ts';

export { KERNEL_NAMES } from './job.ts';

/** Trino's `SplitGenerators` by name (docs/design.md §9). */
export const TRINO_GENERATORS = [
  'aggregated',
  'fast-leaf',
  'slow-leaf',
  'l4-leaf',
  'quanta-exceeding',
  'intermediate',
] as const;
export type TrinoGeneratorName = (typeof TRINO_GENERATORS)[number];

/** Trino's distributions by name, drawn with u in [from, to). */
export const TRINO_DISTRIBUTIONS = [
  'leaf-total',
  'leaf-per-call',
  'intermediate-scheduled',
  'intermediate-wall',
] as const;

/**
 * A settings record (`config`, `threads`): `__proto__`, `constructor` and `prototype` would reach
 * an object's prototype when the record is spread or merged (zod's record drops `__proto__`
 * silently), so such a key is refused, naming it.
 */
const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];
const settingsRecord = z
  .unknown()
  .superRefine((v, ctx) => {
    if (typeof v !== 'object' || v === null) return;
    for (const key of Object.keys(v))
      if (FORBIDDEN_KEYS.includes(key))
        ctx.addIssue({ code: 'custom', message: 'is not allowed as a setting name', path: [key] });
  })
  .pipe(z.record(z.string(), z.unknown()));

/** A name the app shows. */
const label = z.string().min(1).max(MAX_LABEL_CHARS);
/** Times on the workload's clock (when, how long, how often). */
const nonNegative = z.number().finite().min(0).max(MAX_WORKLOAD_MS);
const positive = z.number().finite().gt(0).max(MAX_WORKLOAD_MS);
/** Lengths of work (a split's, a call's, a block's). */
const workMs = z.number().finite().min(0).max(MAX_WORK_MS);
const positiveWorkMs = z.number().finite().gt(0).max(MAX_WORK_MS);
/** Counts carry their limit (shared/limits.ts): the bound is checked before `int`'s safe range. */
const count = (max: number) => z.number().min(1).max(max).int();
const arrivals = count(MAX_ARRIVALS);
/** Jobs per second: at most MAX_ARRIVAL_RATE, so `everyMs` is at least its inverse. */
const minEveryMs = 1000 / MAX_ARRIVAL_RATE;
const unit = z.number().min(0).max(1);

const distributionObject = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('fixed'), ms: workMs }),
  z
    .strictObject({ kind: z.literal('uniform'), minMs: workMs, maxMs: workMs })
    .refine((d) => d.maxMs >= d.minMs, { message: 'must be >= minMs', path: ['maxMs'] }),
  z.strictObject({ kind: z.literal('exponential'), meanMs: positiveWorkMs }),
  z
    .strictObject({
      kind: z.literal('trino'),
      name: z.enum(TRINO_DISTRIBUTIONS),
      from: unit.default(0),
      to: unit.default(1),
    })
    .refine((d) => d.to > d.from, { message: 'must be > from', path: ['to'] }),
]);

/** A time distribution in ms; a bare number is shorthand for `{kind: 'fixed', ms}`. */
export const distributionSchema = z.union(
  [
    // A union, not a preprocess into `{ kind: 'fixed', ms }`: a bad bare number is named as written
    // (`work.totalMs must be <= …`), not as the object it would have become (`work.totalMs.ms`).
    workMs.transform((ms) => ({ kind: 'fixed' as const, ms })),
    distributionObject,
  ],
  { error: `must be a number of ms from 0 to ${MAX_WORK_MS} or a distribution object` },
);
export type Distribution = z.output<typeof distributionObject>;

const simpleGenerator = z.strictObject({
  simple: z.strictObject({ totalMs: positiveWorkMs, perCallMs: positiveWorkMs }),
});

/** How each split's cost is drawn: distributions, or one of Trino's generators. */
const workSchema = z
  .strictObject({
    kernel: kernelSchema.default('spin'),
    input: workInputSchema.optional(),
    totalMs: distributionSchema.optional(),
    perCallMs: distributionSchema.optional(),
    blockedMs: distributionSchema.optional(),
    generator: z.union([z.enum(TRINO_GENERATORS), simpleGenerator]).optional(),
  })
  .superRefine((w, ctx) => {
    if ((w.totalMs === undefined) === (w.generator === undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'needs exactly one of totalMs or generator',
        path: [],
      });
    }
  });
export type WorkSpec = z.output<typeof workSchema>;

const arrivalSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('once'),
    atMs: nonNegative.default(0),
    count: arrivals.default(1),
  }),
  z.strictObject({
    kind: z.literal('periodic'),
    everyMs: positive.min(minEveryMs),
    startMs: nonNegative.default(0),
    count: arrivals.optional(),
  }),
  z.strictObject({
    kind: z.literal('poisson'),
    /** Jobs per second. */
    rate: z.number().finite().gt(0).max(MAX_ARRIVAL_RATE),
    startMs: nonNegative.default(0),
    count: arrivals.optional(),
  }),
]);
export type Arrival = z.output<typeof arrivalSchema>;

const jobClassSchema = z.strictObject({
  name: classNameSchema,
  arrival: arrivalSchema,
  tasks: count(MAX_SPLITS_PER_JOB).default(1),
  /** Splits per task, by kind (docs/design.md §3.1 admission). */
  splits: z
    .strictObject({
      leaf: z.number().min(0).max(MAX_SPLITS_PER_JOB).int().default(0),
      intermediate: z.number().min(0).max(MAX_SPLITS_PER_JOB).int().default(0),
    })
    .refine((s) => s.leaf + s.intermediate >= 1, { message: 'must hold at least one split' }),
  work: workSchema,
  basePriority: prioritySchema.default(50),
  retries: retriesSchema.default(0),
  /** Each task's own limit on running leaf splits, at most the engine's (Trino's `addTask`). */
  maxDriversPerTask: maxDriversSchema.optional(),
  /** Each task's output buffer (Trino's split concurrency controller reads its utilisation). */
  outputBuffer: outputBufferSchema.optional(),
  /** The tenant its jobs are for (`JobSpec.tenant`): `query` fairness groups by it. */
  tenant: z.string().min(1).max(MAX_TENANT_NAME).optional(),
});
export type JobClass = z.output<typeof jobClassSchema>;

const trinoSpecSchema = z.strictObject({
  name: classNameSchema,
  type: z.enum(['leaf', 'intermediate']),
  /** Tasks to run in all; absent = unbounded (Trino's `OptionalInt.empty()`). */
  totalTasks: arrivals.optional(),
  concurrentTasks: count(MAX_TRINO_OUTSTANDING),
  splitsPerTask: count(MAX_SPLITS_PER_JOB),
  generator: z.union([z.enum(TRINO_GENERATORS), simpleGenerator]),
  kernel: kernelSchema.default('spin'),
  /** Each task's own limit on running leaf splits, at most the engine's (Trino's `addTask`). */
  maxDriversPerTask: maxDriversSchema.optional(),
});
export type TrinoSpec = z.output<typeof trinoSpecSchema>;

const timelineStepSchema = z.discriminatedUnion('action', [
  z.strictObject({ atMs: nonNegative, action: z.literal('enable'), spec: label }),
  z.strictObject({ atMs: nonNegative, action: z.literal('disable'), spec: label }),
  z.strictObject({ atMs: nonNegative, action: z.literal('clear') }),
  z.strictObject({
    atMs: nonNegative,
    action: z.literal('mark'),
    label: z.string().max(MAX_LABEL_CHARS),
  }),
]);
export type TimelineStep = z.output<typeof timelineStepSchema>;

/** Trino's SimulationController: specs, a timeline, a fixed controller period. */
const trinoSchema = z.strictObject({
  controllerIntervalMs: positive.default(500),
  /** A LEAF task keeps at most this many splits outstanding. */
  maxOutstandingLeafSplits: count(MAX_SPLITS_PER_JOB).default(3),
  specs: boundedArray(trinoSpecSchema, MAX_CLASSES, 1),
  timeline: boundedArray(timelineStepSchema, MAX_TIMELINE_STEPS),
});
export type TrinoSimulation = z.output<typeof trinoSchema>;

export const workloadSchema = z
  .strictObject({
    name: label.default('custom'),
    description: z.string().max(MAX_DESCRIPTION_CHARS).optional(),
    seed: z.number().int().min(0).max(MAX_SEED).default(1),
    /** When the run stops (ms of backend time); required for open-ended arrivals. */
    durationMs: positive.optional(),
    /**
     * threads backend only: every time in the workload is multiplied by this — arrivals, split
     * costs, the duration, and the engine's time settings (`config`, `threads` and `--set`
     * values such as quantumMs), which are all written in workload time. Job workloads only: a
     * graph workload's node costs run as written (another scale is refused).
     */
    timeScale: positive.default(1),
    /** Executor settings this workload wants (validated by the executor's config schema). */
    config: settingsRecord.optional(),
    /**
     * Overrides applied on the threads backend only (e.g. fewer workers than the simulator). Its
     * times are workload time like `config`'s: the engine gets them multiplied by `timeScale`.
     */
    threads: settingsRecord.optional(),
    /**
     * The tenants' weights under `fair` (the classes' `tenant`s; those not named 1), set when the
     * workload starts. Absent: the weights stay as they are.
     */
    tenantWeights: tenantWeightsSchema.optional(),
    classes: boundedArray(jobClassSchema, MAX_CLASSES, 1).optional(),
    trino: trinoSchema.optional(),
    /** A graph document or a list of them (one run each), validated by shared/graph.ts. */
    graph: z.unknown().optional(),
  })
  .superRefine((w, ctx) => {
    if (w.graph !== undefined && (w.classes !== undefined || w.trino !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'cannot be combined with classes or trino (a graph workload runs on its own)',
        path: ['graph'],
      });
    }
    if (w.classes === undefined && w.trino === undefined && w.graph === undefined) {
      ctx.addIssue({ code: 'custom', message: 'needs classes, trino or graph', path: ['classes'] });
    }
    if (w.graph !== undefined && w.durationMs !== undefined) {
      // It was ignored, and a run with a duration has no default time limit: a graph with a
      // node of a day's work ran on unbounded.
      ctx.addIssue({
        code: 'custom',
        message:
          'is not taken by a graph workload, which runs until its graphs end (no --duration); bound its wall time with --time-limit',
        path: ['durationMs'],
      });
    }
    if (w.graph !== undefined && w.timeScale !== 1) {
      // It was ignored: a node of 3,000 ms at 0.01 ran 3 s on threads, and the report said so.
      ctx.addIssue({
        code: 'custom',
        message: 'is not taken by a graph workload: its node costs run as written on every backend',
        path: ['timeScale'],
      });
    }
    if (w.graph !== undefined) checkGraphField(w.graph, ctx);
    checkTotals(w, ctx);
    const names = new Set<string>();
    w.classes?.forEach((c, i) => {
      if (names.has(c.name))
        ctx.addIssue({
          code: 'custom',
          message: `duplicates "${c.name}"`,
          path: ['classes', i, 'name'],
        });
      names.add(c.name);
      if (
        c.arrival.kind !== 'once' &&
        c.arrival.count === undefined &&
        w.durationMs === undefined
      ) {
        ctx.addIssue({
          code: 'custom',
          message: 'is required when durationMs is not set',
          path: ['classes', i, 'arrival', 'count'],
        });
      }
    });
    if (w.trino !== undefined) {
      const specs = new Set(w.trino.specs.map((s) => s.name));
      w.trino.timeline.forEach((step, i) => {
        if ((step.action === 'enable' || step.action === 'disable') && !specs.has(step.spec)) {
          ctx.addIssue({
            code: 'custom',
            message: `names no spec "${step.spec}"`,
            path: ['trino', 'timeline', i, 'spec'],
          });
        }
      });
      if (w.durationMs === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'is required for a trino simulation',
          path: ['durationMs'],
        });
      }
    }
  });

/** Jobs a class submits: its `count`, else what its rate yields over the workload's duration. */
function jobsOf(a: Arrival, durationMs: number | undefined): number {
  if (a.count !== undefined) return a.count;
  if (a.kind === 'once' || durationMs === undefined) return 0; // a missing count is reported
  return a.kind === 'periodic' ? Math.ceil(durationMs / a.everyMs) : (a.rate * durationMs) / 1000;
}

/**
 * Products of in-range values can still be too large: splits per job, splits in all, and the
 * splits a Trino simulation keeps outstanding are each held to their limit (shared/limits.ts).
 */
function checkTotals(
  w: {
    classes?: JobClass[] | undefined;
    trino?: TrinoSimulation | undefined;
    durationMs?: number | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  let total = 0;
  w.classes?.forEach((c, i) => {
    const perJob = c.tasks * (c.splits.leaf + c.splits.intermediate);
    if (perJob > MAX_SPLITS_PER_JOB) {
      ctx.addIssue({
        code: 'custom',
        message: `must be <= ${MAX_SPLITS_PER_JOB} splits per job (tasks × (leaf + intermediate) is ${perJob})`,
        path: ['classes', i, 'splits'],
      });
    }
    total += perJob * jobsOf(c.arrival, w.durationMs);
    if (total > MAX_WORKLOAD_SPLITS) {
      ctx.addIssue({
        code: 'custom',
        message: `must be <= ${MAX_WORKLOAD_SPLITS} splits in all (jobs × splits per job, summed over classes, reaches ${Math.round(total)})`,
        path: ['classes', i, 'arrival'],
      });
      total = -Infinity; // said once
    }
  });
  if (w.trino === undefined) return;
  const cap = w.trino.maxOutstandingLeafSplits;
  const outstanding = w.trino.specs.reduce(
    (n, s) =>
      n +
      s.concurrentTasks * (s.type === 'leaf' ? Math.min(cap, s.splitsPerTask) : s.splitsPerTask),
    0,
  );
  if (outstanding > MAX_TRINO_OUTSTANDING) {
    ctx.addIssue({
      code: 'custom',
      message: `must be <= ${MAX_TRINO_OUTSTANDING} splits outstanding (concurrentTasks × splits per task, summed over specs, is ${outstanding})`,
      path: ['trino', 'specs'],
    });
  }
}

export type WorkloadInput = z.input<typeof workloadSchema>;
export type Workload = z.output<typeof workloadSchema>;

/** A workload document runs as a task graph: it holds one, or it is one (nodes or a generator). */
export function isGraphWorkload(doc: unknown): boolean {
  return (
    typeof doc === 'object' &&
    doc !== null &&
    ('graph' in doc || 'nodes' in doc || 'generator' in doc)
  );
}

export function parseWorkload(input: unknown): Workload {
  const result = workloadSchema.safeParse(input);
  if (!result.success) throw schemaError(result.error);
  return result.data;
}
