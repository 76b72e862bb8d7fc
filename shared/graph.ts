/**
 * A graph document (docs/design.md §3.4, §5): explicit nodes and edges, or a seeded generator spec.
 * Validated here, at the edge; the engine compiles the parsed document (`engine/core/graph`).
 * Costs are in milliseconds like every other user-facing time.
 */
import { z } from 'zod';
import { schemaError } from './schema-error.ts';

export const GRAPH_POLICIES = [
  'fifo',
  'lifo',
  'most-successors',
  'sjf',
  'ljf',
  'critical-path',
] as const;
export const GRAPH_ERROR_MODES = ['fail-fast', 'continue'] as const;
export const GRAPH_EXECUTORS = ['central', 'stealing'] as const;
export const GRAPH_GENERATORS = [
  'chain',
  'binary-tree',
  'independent',
  'wavefront',
  'layered-random',
  'erdos-renyi',
  'diamond',
] as const;

export type GraphPolicy = (typeof GRAPH_POLICIES)[number];

export function isGraphPolicy(name: string): name is GraphPolicy {
  return (GRAPH_POLICIES as readonly string[]).includes(name);
}
export type GraphErrorMode = (typeof GRAPH_ERROR_MODES)[number];
export type GraphExecutorKind = (typeof GRAPH_EXECUTORS)[number];
export type GraphGeneratorName = (typeof GRAPH_GENERATORS)[number];

/** A kernel registered by name, or a user's module export. */
export const graphKernelSchema = z.union([
  z.string().min(1),
  z.object({ module: z.string().min(1), exportName: z.string().min(1).optional() }).strict(),
]);
export type GraphKernel = z.infer<typeof graphKernelSchema>;

const costMs = z.number().finite().min(0).max(86_400_000);
const retries = z.number().int().min(0).max(100);
/** Fault injection: the chance an attempt fails (honoured by backends that inject faults: sim). */
const failProbability = z.number().finite().min(0).max(1);

export const graphNodeSchema = z
  .object({
    id: z.string().min(1),
    kernel: graphKernelSchema.optional(),
    cost: costMs.optional(),
    retries: retries.optional(),
    failProbability: failProbability.optional(),
  })
  .strict();
export const graphEdgeSchema = z
  .object({ from: z.string().min(1), to: z.string().min(1) })
  .strict();

/** How a run treats its graph; shared by explicit and generated documents. */
const runShape = {
  errorMode: z.enum(GRAPH_ERROR_MODES).default('fail-fast'),
  policy: z.enum(GRAPH_POLICIES).default('fifo'),
  executor: z.enum(GRAPH_EXECUTORS).default('central'),
};

/** What every generated node gets (a generator may vary the cost between `cost` and `maxCost`). */
const nodeDefaults = {
  kernel: graphKernelSchema.optional(),
  cost: costMs.default(0),
  retries: retries.default(0),
  failProbability: failProbability.default(0),
};

const size = (max: number) => z.number().int().min(1).max(max);
const seed = z.number().int().min(0).max(0xffff_ffff).default(1);

export const explicitGraphSchema = z
  .object({
    nodes: z.array(graphNodeSchema).min(1),
    edges: z.array(graphEdgeSchema).default([]),
    ...runShape,
  })
  .strict();

export const generatorSpecSchema = z.discriminatedUnion('generator', [
  z
    .object({
      generator: z.literal('chain'),
      length: size(10_000_000),
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({ generator: z.literal('binary-tree'), depth: size(24), ...nodeDefaults, ...runShape })
    .strict(),
  z
    .object({
      generator: z.literal('independent'),
      count: size(10_000_000),
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({
      generator: z.literal('wavefront'),
      rows: size(10_000),
      cols: size(10_000),
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({
      generator: z.literal('layered-random'),
      levels: size(100_000),
      width: size(100_000),
      maxCost: costMs.optional(),
      seed,
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({
      generator: z.literal('erdos-renyi'),
      nodes: size(100_000),
      p: z.number().finite().min(0).max(1),
      maxCost: costMs.optional(),
      seed,
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({
      generator: z.literal('diamond'),
      /** Short branches off A (C1..Cw, each with a tail E); B is the one long branch. */
      width: size(1000).default(1),
      longCost: costMs.default(10),
      ...nodeDefaults,
      cost: costMs.default(1),
      ...runShape,
    })
    .strict(),
]);

export const graphDocumentSchema = z.union([explicitGraphSchema, generatorSpecSchema]);

export type ExplicitGraph = z.output<typeof explicitGraphSchema>;
export type GeneratorSpec = z.output<typeof generatorSpecSchema>;
export type GraphDocument = ExplicitGraph | GeneratorSpec;
export type GraphNode = z.output<typeof graphNodeSchema>;
export type GraphEdge = z.output<typeof graphEdgeSchema>;

/**
 * Parses a graph document; a bad one throws `INVALID_WORKLOAD` naming the field
 * (`nodes[3].cost must be >= 0`), from `at` when the document sits inside another
 * (`graph[1].nodes[3].cost`). A document with a `generator` key is a generator spec.
 */
export function parseGraphDocument(input: unknown, at: readonly PropertyKey[] = []): GraphDocument {
  const isGenerator = typeof input === 'object' && input !== null && 'generator' in input;
  const result = (isGenerator ? generatorSpecSchema : explicitGraphSchema).safeParse(input);
  if (result.success) return result.data;
  throw schemaError(result.error, 'INVALID_WORKLOAD', at, 'graph');
}
