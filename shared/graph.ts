/**
 * A graph document (docs/design.md §3.4, §5): explicit nodes and edges, or a seeded generator spec.
 * Validated here, at the edge; the engine compiles the parsed document (`engine/core/graph`).
 * Costs are in milliseconds like every other user-facing time.
 */
import { z } from 'zod';
import { moduleRefSchema, retriesSchema } from './job.ts';
import { boundedArray } from './lib/bounds.ts';
import {
  MAX_CLASSES,
  MAX_GRAPH_EDGES,
  MAX_GRAPH_NODES,
  MAX_LABEL_CHARS,
  MAX_WORK_MS,
  MAX_SEED,
} from './limits.ts';
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
  z.string().min(1).max(MAX_LABEL_CHARS),
  moduleRefSchema, // its lengths bounded as a job's
]);
export type GraphKernel = z.infer<typeof graphKernelSchema>;

const costMs = z.number().finite().min(0).max(MAX_WORK_MS);
/** Fault injection: the chance an attempt fails (honoured by backends that inject faults: sim). */
const failProbability = z.number().finite().min(0).max(1);

export const graphNodeSchema = z
  .object({
    id: z.string().min(1).max(MAX_LABEL_CHARS),
    kernel: graphKernelSchema.optional(),
    cost: costMs.optional(),
    retries: retriesSchema.optional(),
    failProbability: failProbability.optional(),
  })
  .strict();
export const graphEdgeSchema = z
  .object({
    from: z.string().min(1).max(MAX_LABEL_CHARS),
    to: z.string().min(1).max(MAX_LABEL_CHARS),
  })
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
  retries: retriesSchema.default(0),
  failProbability: failProbability.default(0),
};

/** A dimension with its own maximum; the product of a shape's dimensions is checked below. */
/** Documents in a workload's `graph` list. */
const MAX_GRAPH_LIST = MAX_CLASSES;

const size = (max: number) => z.number().min(1).max(max).int();
const seed = z.number().int().min(0).max(MAX_SEED).default(1);

const isLabel = (v: unknown): boolean =>
  typeof v === 'string' && v.length >= 1 && v.length <= MAX_LABEL_CHARS;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/** A node in its most common form, `{id}` or `{id, cost}`, as `graphNodeSchema` accepts it. */
export function isPlainNode(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  for (const key in v) if (key !== 'id' && key !== 'cost') return false;
  const cost = v['cost'];
  return (
    isLabel(v['id']) &&
    (cost === undefined ||
      (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 && cost <= MAX_WORK_MS))
  );
}

/** An edge `{from, to}` as `graphEdgeSchema` accepts it. */
export function isPlainEdge(v: unknown): boolean {
  if (!isPlainObject(v)) return false;
  let keys = 0;
  for (const key in v) {
    if (key !== 'from' && key !== 'to') return false;
    keys++;
  }
  return keys === 2 && isLabel(v['from']) && isLabel(v['to']);
}

/**
 * `boundedArray(item, max, min)` whose entries in the plain form `plain` accepts are taken as they
 * are: zod's parse of each of a graph's million nodes and four million edges was ≈ 3 s of a
 * cyclic graph's refusal. `plain` accepts only entries `item` takes unchanged (graph-bulk.test.ts
 * checks it on random entries); every other entry is parsed by `item`, so each error and each
 * default is the schema's own.
 */
function bulkArray<T extends z.ZodType>(
  item: T,
  plain: (v: unknown) => boolean,
  max: number,
  min?: number,
) {
  return boundedArray(z.unknown(), max, min).transform((entries, ctx): z.output<T>[] => {
    for (let i = 0; i < entries.length; i++) {
      if (plain(entries[i])) continue;
      const result = item.safeParse(entries[i]);
      if (!result.success) {
        for (const issue of result.error.issues)
          ctx.addIssue({ ...issue, path: [i, ...issue.path] } as Parameters<
            typeof ctx.addIssue
          >[0]);
        return z.NEVER;
      }
      entries[i] = result.data; // zod's own copy of the array: the input is not edited
    }
    return entries as z.output<T>[];
  });
}

export const explicitGraphSchema = z
  .object({
    nodes: bulkArray(graphNodeSchema, isPlainNode, MAX_GRAPH_NODES, 1),
    edges: bulkArray(graphEdgeSchema, isPlainEdge, MAX_GRAPH_EDGES).default([]),
    ...runShape,
  })
  .strict();

const generatorShapes = z.discriminatedUnion('generator', [
  z
    .object({
      generator: z.literal('chain'),
      length: size(MAX_GRAPH_NODES),
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({ generator: z.literal('binary-tree'), depth: size(20), ...nodeDefaults, ...runShape })
    .strict(),
  z
    .object({
      generator: z.literal('independent'),
      count: size(MAX_GRAPH_NODES),
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({
      generator: z.literal('wavefront'),
      rows: size(MAX_GRAPH_NODES),
      cols: size(MAX_GRAPH_NODES),
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({
      generator: z.literal('layered-random'),
      levels: size(MAX_GRAPH_NODES),
      width: size(MAX_GRAPH_NODES),
      maxCost: costMs.optional(),
      seed,
      ...nodeDefaults,
      ...runShape,
    })
    .strict(),
  z
    .object({
      generator: z.literal('erdos-renyi'),
      nodes: size(MAX_GRAPH_NODES),
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

type Shape = z.output<typeof generatorShapes>;

/** The dimensions a shape multiplies, as `[field, value]`, the last one named in the error. */
function dimensions(g: Shape): [string, number][] {
  switch (g.generator) {
    case 'wavefront':
      return [
        ['rows', g.rows],
        ['cols', g.cols],
      ];
    case 'layered-random':
      return [
        ['levels', g.levels],
        ['width', g.width],
      ];
    default:
      return [];
  }
}

/** Nodes a generator builds, and at most how many edges (Erdős–Rényi: the expected count). */
export function generatedSize(g: Shape): { nodes: number; edges: number } {
  switch (g.generator) {
    case 'chain':
      return { nodes: g.length, edges: g.length - 1 };
    case 'binary-tree':
      return { nodes: 2 ** g.depth - 1, edges: 2 ** g.depth - 2 };
    case 'independent':
      return { nodes: g.count, edges: 0 };
    case 'wavefront':
      return { nodes: g.rows * g.cols, edges: 2 * g.rows * g.cols };
    case 'layered-random':
      return { nodes: g.levels * g.width, edges: 4 * g.levels * g.width };
    case 'erdos-renyi':
      return { nodes: g.nodes, edges: (g.p * g.nodes * (g.nodes - 1)) / 2 };
    case 'diamond':
      return { nodes: 3 + 2 * g.width, edges: 3 * g.width + 2 };
  }
}

/**
 * A shape's dimensions each have a maximum, and so does their product (shared/limits.ts):
 * `wavefront` 10000 × 10000 is refused here rather than building 100M nodes.
 */
export const generatorSpecSchema = generatorShapes.superRefine((g, ctx) => {
  const { nodes, edges } = generatedSize(g);
  const dims = dimensions(g);
  if (nodes > MAX_GRAPH_NODES && dims.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must keep ${dims.map(([k]) => k).join(' × ')} <= ${MAX_GRAPH_NODES} nodes (${dims.map(([, v]) => v).join(' × ')} = ${nodes})`,
      path: [dims.at(-1)![0]],
    });
  } else if (g.generator === 'erdos-renyi' && edges > MAX_GRAPH_EDGES) {
    ctx.addIssue({
      code: 'custom',
      message: `must keep the expected edges p × nodes × (nodes - 1) / 2 <= ${MAX_GRAPH_EDGES} (about ${Math.round(edges)})`,
      path: ['p'],
    });
  }
  // A draw between `cost` and `maxCost`: one below `cost` was ignored, every node costing `cost`.
  if ('maxCost' in g && g.maxCost !== undefined && g.maxCost < g.cost) {
    ctx.addIssue({
      code: 'custom',
      message: `must be >= cost (${g.cost}): node costs are drawn between the two`,
      path: ['maxCost'],
    });
  }
});

export const graphDocumentSchema = z.union([explicitGraphSchema, generatorSpecSchema]);

export type ExplicitGraph = z.output<typeof explicitGraphSchema>;
export type GeneratorSpec = Shape;
export type GraphDocument = ExplicitGraph | GeneratorSpec;
export type GraphNode = z.output<typeof graphNodeSchema>;
export type GraphEdge = z.output<typeof graphEdgeSchema>;

/** Nodes a parsed document holds (a generator's before it is built). */
export function graphNodeCount(doc: GraphDocument): number {
  return 'generator' in doc ? generatedSize(doc).nodes : doc.nodes.length;
}

/**
 * Graph documents a workload's schema accepted (`checkGraphField`), by the object it parsed: a
 * run checks its workload, graph documents included, then takes each document parsed
 * (`checkedGraphDocument`), and a 2^20-node document's second parse took seconds. Only that read
 * trusts it: `parseGraphDocument` always parses. A document edited in place after its workload
 * was checked runs as it was checked (the hosts edit copies, `withGraphOverrides`).
 */
const checkedDocuments = new WeakMap<object, GraphDocument>();

/** The schema for `input`: a document with a `generator` key is a generator spec. */
function schemaFor(input: unknown) {
  const isGenerator = typeof input === 'object' && input !== null && 'generator' in input;
  return isGenerator ? generatorSpecSchema : explicitGraphSchema;
}

/**
 * A workload's `graph` (one document or a list, run one after another) checked inside the
 * workload's own schema: each document as `parseGraphDocument` would, its issues placed under
 * `graph` / `graph[i]`, and all documents together within MAX_GRAPH_NODES and MAX_GRAPH_EDGES (a
 * run compiles them all before the first runs).
 */
export function checkGraphField(raw: unknown, ctx: z.RefinementCtx): void {
  const list: unknown[] = Array.isArray(raw) ? raw : [raw];
  const at = (i: number): (string | number)[] => (Array.isArray(raw) ? ['graph', i] : ['graph']);
  if (list.length === 0 || list.length > MAX_GRAPH_LIST) {
    const message =
      list.length === 0
        ? 'must have at least 1 entry'
        : `must have at most ${MAX_GRAPH_LIST} entries`;
    ctx.addIssue({ code: 'custom', message, path: ['graph'] });
    return;
  }
  let nodes = 0;
  let edges = 0;
  for (const [i, doc] of list.entries()) {
    const result = schemaFor(doc).safeParse(doc);
    if (!result.success) {
      for (const issue of result.error.issues)
        ctx.addIssue({ ...issue, path: [...at(i), ...issue.path] } as Parameters<
          typeof ctx.addIssue
        >[0]);
      return;
    }
    const d = result.data;
    checkedDocuments.set(doc as object, d);
    nodes += graphNodeCount(d);
    edges += 'generator' in d ? generatedSize(d).edges : d.edges.length;
  }
  if (nodes > MAX_GRAPH_NODES) {
    ctx.addIssue({
      code: 'custom',
      message: `must hold <= ${MAX_GRAPH_NODES} nodes in all its graphs (holds ${nodes})`,
      path: ['graph'],
    });
  }
  // The edges too: a list of dense graphs, each within the per-graph limit, held 1.5 billion.
  if (edges > MAX_GRAPH_EDGES) {
    ctx.addIssue({
      code: 'custom',
      message: `must hold <= ${MAX_GRAPH_EDGES} edges in all its graphs (holds ${Math.round(edges)})`,
      path: ['graph'],
    });
  }
}

/**
 * Parses a graph document; a bad one throws `INVALID_WORKLOAD` naming the field
 * (`nodes[3].cost must be >= 0`), from `at` when the document sits inside another
 * (`graph[1].nodes[3].cost`). A document with a `generator` key is a generator spec.
 */
export function parseGraphDocument(input: unknown, at: readonly PropertyKey[] = []): GraphDocument {
  const result = schemaFor(input).safeParse(input);
  if (result.success) return result.data;
  throw schemaError(result.error, 'INVALID_WORKLOAD', at, 'graph');
}

/** `parseGraphDocument`, answered by the workload's check when it parsed this very object. */
export function checkedGraphDocument(
  input: unknown,
  at: readonly PropertyKey[] = [],
): GraphDocument {
  const known =
    typeof input === 'object' && input !== null ? checkedDocuments.get(input) : undefined;
  return known ?? parseGraphDocument(input, at);
}
