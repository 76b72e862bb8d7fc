// Every size in the workload and graph schemas has a maximum (shared/limits.ts); each input that
// once froze the engine is refused up front, naming the field and the limit.
import { describe, expect, it } from 'vitest';
import { parseEngineConfig } from './config.ts';
import { SchedLabError } from './errors.ts';
import { parseGraphDocument } from './graph.ts';
import { jobSpecSchema } from './job.ts';
import {
  MAX_ARRIVALS,
  MAX_CLASSES,
  MAX_DESCRIPTION_CHARS,
  MAX_GRAPH_EDGES,
  MAX_GRAPH_NODES,
  MAX_JSON_DEPTH,
  MAX_LABEL_CHARS,
  MAX_SPLITS_PER_JOB,
  MAX_TIMELINE_STEPS,
  MAX_TRINO_OUTSTANDING,
  MAX_WORKLOAD_SPLITS,
} from './limits.ts';
import { schemaError } from './schema-error.ts';
import { parseWorkload } from './workload.ts';
import { engineConfigPatchSchema } from './config.ts';

const klass = (over: Record<string, unknown> = {}) => ({
  name: 'q',
  arrival: { kind: 'once' },
  splits: { leaf: 1 },
  work: { totalMs: 1 },
  ...over,
});

function refusal(parse: () => unknown): { field: string | undefined; message: string } {
  try {
    parse();
  } catch (e) {
    if (!(e instanceof SchedLabError)) throw e;
    expect(e.code).toBe('INVALID_WORKLOAD');
    return { field: e.field, message: e.message };
  }
  throw new Error('expected the document to be refused');
}

describe('workload size limits', () => {
  it.each([
    ['classes[0].tasks', { tasks: 1e9 }, MAX_SPLITS_PER_JOB],
    ['classes[0].arrival.count', { arrival: { kind: 'once', count: 1e9 } }, MAX_ARRIVALS],
    ['classes[0].splits.leaf', { splits: { leaf: 1e9 } }, MAX_SPLITS_PER_JOB],
    ['classes[0].splits.intermediate', { splits: { intermediate: 1e9 } }, MAX_SPLITS_PER_JOB],
  ])('refuses %s at 1e9, naming its maximum', (field, over, max) => {
    expect(refusal(() => parseWorkload({ classes: [klass(over)] }))).toEqual({
      field,
      message: `${field} must be <= ${max}`,
    });
  });

  it('refuses a job whose in-range tasks and splits multiply past the per-job limit', () => {
    const r = refusal(() =>
      parseWorkload({ classes: [klass({ tasks: 1000, splits: { leaf: 1000 } })] }),
    );
    expect(r.field).toBe('classes[0].splits');
    expect(r.message).toContain(`<= ${MAX_SPLITS_PER_JOB} splits per job`);
    expect(r.message).toContain('is 1000000');
  });

  it('refuses a workload whose jobs × splits, over all classes, pass the total', () => {
    const many = klass({
      tasks: 100,
      splits: { leaf: 100 },
      arrival: { kind: 'once', count: 600 },
    });
    // 600 × 10,000 = 6M each: one class fits, the second passes 10M.
    expect(() => parseWorkload({ classes: [many] })).not.toThrow();
    const r = refusal(() => parseWorkload({ classes: [many, { ...many, name: 'r' }] }));
    expect(r.field).toBe('classes[1].arrival');
    expect(r.message).toContain(`<= ${MAX_WORKLOAD_SPLITS} splits in all`);
    // An open-ended class counts what its rate yields over the duration.
    const open = refusal(() =>
      parseWorkload({
        durationMs: 1e9,
        classes: [klass({ arrival: { kind: 'poisson', rate: 1000 } })],
      }),
    );
    expect(open.field).toBe('classes[0].arrival');
  });

  it('bounds arrival rates, the class list and Trino outstanding splits', () => {
    expect(
      refusal(() =>
        parseWorkload({
          durationMs: 1,
          classes: [klass({ arrival: { kind: 'poisson', rate: 1e12, count: 1 } })],
        }),
      ).message,
    ).toBe('classes[0].arrival.rate must be <= 1000000');
    const classes = Array.from({ length: MAX_CLASSES + 1 }, (_, i) => klass({ name: `c${i}` }));
    expect(refusal(() => parseWorkload({ classes })).message).toBe(
      `classes must have at most ${MAX_CLASSES} entries`,
    );
    const spec = (name: string) => ({
      name,
      type: 'intermediate',
      concurrentTasks: 1000,
      splitsPerTask: 100,
      generator: 'intermediate',
    });
    // A graph's node costs run as written: a timeScale was taken and ignored.
    expect(
      refusal(() =>
        parseWorkload({ timeScale: 0.01, graph: { nodes: [{ id: 'a', cost: 3000 }] } }),
      ),
    ).toEqual({
      field: 'timeScale',
      message:
        'timeScale is not taken by a graph workload: its node costs run as written on every backend',
    });
    // An empty list runs nothing and reported success with 0 jobs: refused as trino's and graph's.
    expect(refusal(() => parseWorkload({ classes: [] }))).toEqual({
      field: 'classes',
      message: 'classes must have at least 1 entry',
    });
    const trino = (specs: object[]) => ({ durationMs: 1000, trino: { specs, timeline: [] } });
    expect(() => parseWorkload(trino([spec('a')]))).not.toThrow();
    const r = refusal(() => parseWorkload(trino([spec('a'), spec('b')])));
    expect(r.field).toBe('trino.specs');
    expect(r.message).toContain(`<= ${MAX_TRINO_OUTSTANDING} splits outstanding`);
  });
});

describe('text a document shows', () => {
  it('bounds names, labels and descriptions, naming each field and its maximum', () => {
    // A 15 MiB name was taken, and sent back in every snapshot.
    const long = 'x'.repeat(MAX_LABEL_CHARS + 1);
    const cases: [object, string][] = [
      [{ name: long, classes: [klass()] }, 'name'],
      [{ description: 'x'.repeat(MAX_DESCRIPTION_CHARS + 1), classes: [klass()] }, 'description'],
      [
        {
          durationMs: 1000,
          trino: {
            specs: [
              {
                name: 'a',
                type: 'intermediate',
                concurrentTasks: 1,
                splitsPerTask: 1,
                generator: 'intermediate',
              },
            ],
            timeline: [{ atMs: 0, action: 'mark', label: long }],
          },
        },
        'trino.timeline[0].label',
      ],
    ];
    for (const [doc, field] of cases) {
      const r = refusal(() => parseWorkload(doc));
      expect(r.field).toBe(field);
      expect(r.message).toMatch(/at most (200|10000) characters/);
    }
    const graph = { nodes: [{ id: long }], edges: [] };
    expect(() => parseGraphDocument(graph)).toThrow(/nodes\[0\]\.id/);
    expect(
      parseWorkload({ name: 'x'.repeat(MAX_LABEL_CHARS), classes: [klass()] }).name,
    ).toHaveLength(MAX_LABEL_CHARS);
  });
});

describe('graph size limits', () => {
  it('refuses generator shapes whose dimensions multiply past the node limit', () => {
    const wave = refusal(() =>
      parseGraphDocument({ generator: 'wavefront', rows: 10_000, cols: 10_000 }),
    );
    expect(wave).toEqual({
      field: 'cols',
      message: `cols must keep rows × cols <= ${MAX_GRAPH_NODES} nodes (10000 × 10000 = 100000000)`,
    });
    const layered = refusal(() =>
      parseGraphDocument({ generator: 'layered-random', levels: 100_000, width: 100_000 }),
    );
    expect(layered.field).toBe('width');
    expect(refusal(() => parseGraphDocument({ generator: 'chain', length: 1e9 })).message).toBe(
      `length must be <= ${MAX_GRAPH_NODES}`,
    );
    expect(refusal(() => parseGraphDocument({ generator: 'binary-tree', depth: 24 })).message).toBe(
      'depth must be <= 20',
    );
    // At the limit it is accepted.
    expect(() =>
      parseGraphDocument({ generator: 'wavefront', rows: 1024, cols: 1024 }),
    ).not.toThrow();
  });

  it('checks a workload graph inside parseWorkload, under graph., and its total over a list', () => {
    expect(
      refusal(() => parseWorkload({ graph: { generator: 'wavefront', rows: 1e4, cols: 1e4 } }))
        .field,
    ).toBe('graph.cols');
    expect(refusal(() => parseWorkload({ graph: { nodes: [{ id: 'a', cost: -1 }] } }))).toEqual({
      field: 'graph.nodes[0].cost',
      message: 'graph.nodes[0].cost must be >= 0',
    });
    const chain = { generator: 'chain', length: MAX_GRAPH_NODES };
    expect(refusal(() => parseWorkload({ graph: [chain, chain] }))).toEqual({
      field: 'graph',
      message: `graph must hold <= ${MAX_GRAPH_NODES} nodes in all its graphs (holds ${2 * MAX_GRAPH_NODES})`,
    });
    // Edges too: 362 complete graphs of 2,896 nodes (each within the per-graph limits) made a
    // 30 KB document of 1.5 billion edges, all compiled before the first runs.
    const dense = { generator: 'erdos-renyi', nodes: 2896, p: 1 };
    expect(refusal(() => parseWorkload({ graph: Array(362).fill(dense) }))).toEqual({
      field: 'graph',
      message: `graph must hold <= ${MAX_GRAPH_EDGES} edges in all its graphs (holds ${362 * 4_191_960})`,
    });
    expect(() => parseWorkload({ graph: [dense] })).not.toThrow();
  });
});

/** An entry that counts every look into it: a list refused by its length is never looked into. */
function lookCounter(): { entry: object; looks: () => number } {
  let looks = 0;
  const look =
    <A extends unknown[], R>(f: (...a: A) => R) =>
    (...a: A): R => {
      looks++;
      return f(...a);
    };
  const entry = new Proxy(
    {},
    {
      get: look(Reflect.get),
      has: look(Reflect.has),
      ownKeys: look(Reflect.ownKeys),
      getOwnPropertyDescriptor: look(Reflect.getOwnPropertyDescriptor),
      getPrototypeOf: look(Reflect.getPrototypeOf),
    },
  );
  return { entry, looks: () => looks };
}

describe('lists past their limit', () => {
  // Their entries were each parsed before the length was looked at: a file of 20 million empty
  // graph nodes was refused after the schema read all of them.
  const spec = {
    name: 's',
    type: 'leaf',
    concurrentTasks: 1,
    splitsPerTask: 1,
    generator: 'fast-leaf',
  };
  it.each([
    ['nodes', MAX_GRAPH_NODES, (l: object[]) => parseGraphDocument({ nodes: l })],
    [
      'edges',
      MAX_GRAPH_EDGES,
      (l: object[]) => parseGraphDocument({ nodes: [{ id: 'a' }], edges: l }),
    ],
    ['graph.nodes', MAX_GRAPH_NODES, (l: object[]) => parseWorkload({ graph: { nodes: l } })],
    ['classes', MAX_CLASSES, (l: object[]) => parseWorkload({ classes: l })],
    [
      'trino.specs',
      MAX_CLASSES,
      (l: object[]) => parseWorkload({ durationMs: 1, trino: { specs: l, timeline: [] } }),
    ],
    [
      'trino.timeline',
      MAX_TIMELINE_STEPS,
      (l: object[]) => parseWorkload({ durationMs: 1, trino: { specs: [spec], timeline: l } }),
    ],
  ])('refuses %s past %i entries by its length, before looking at one', (field, max, parse) => {
    const { entry, looks } = lookCounter();
    expect(refusal(() => parse(new Array<object>(max + 1).fill(entry)))).toEqual({
      field,
      message: `${field} must have at most ${max} entries`,
    });
    expect(looks()).toBe(0);
    expect(() => parse([entry])).toThrow(); // within the limit, the entry is looked at
    expect(looks()).toBeGreaterThan(0);
  });

  it.each([
    ['tasks', 100_000, (l: object[]) => ({ class: 'c', tasks: l })],
    ['tasks[0].splits', 1_000_000, (l: object[]) => ({ class: 'c', tasks: [{ splits: l }] })],
  ])('refuses a job’s %s past %i entries by its length', (field, max, job) => {
    const { entry, looks } = lookCounter();
    const result = jobSpecSchema.safeParse(job(new Array<object>(max + 1).fill(entry)));
    expect(result.success).toBe(false);
    if (!result.success)
      expect(schemaError(result.error, 'INVALID_ARGUMENT', [], 'job').message).toBe(
        `${field} must have at most ${max} entries`,
      );
    expect(looks()).toBe(0);
  });
});

describe('a module’s input', () => {
  /** `levels` arrays one inside the next. */
  const nested = (levels: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < levels; i++) v = [v];
    return v;
  };
  const withInput = (input: unknown) =>
    klass({ work: { kernel: { module: '/abs/ok.mjs' }, input, totalMs: 1 } });

  // 100,000 levels passed the schema and overflowed the stack copying the workload: `schedlab:
  // engine failure: Maximum call stack size exceeded`, no code, no field.
  it('refuses a workload’s work.input nested past MAX_JSON_DEPTH, naming the field and limit', () => {
    const field = 'classes[0].work.input';
    const message = `${field} must nest arrays and objects at most ${MAX_JSON_DEPTH} deep`;
    for (const levels of [MAX_JSON_DEPTH + 1, 100_000])
      expect(refusal(() => parseWorkload({ classes: [withInput(nested(levels))] }))).toEqual({
        field,
        message,
      });
    const input = nested(MAX_JSON_DEPTH);
    expect(parseWorkload({ classes: [withInput(input)] }).classes?.[0]?.work.input).toBe(input);
  });

  it('refuses a job’s split input nested past MAX_JSON_DEPTH as the executor’s error', () => {
    const work = (input: unknown) => ({ kernel: 'spin', input, totalNanos: 1 });
    const job = (input: unknown) => ({
      class: 'c',
      tasks: [{ splits: [{ kind: 'leaf', work: work(input) }] }],
    });
    const result = jobSpecSchema.safeParse(job(nested(100_000)));
    expect(result.success).toBe(false);
    if (!result.success)
      expect(schemaError(result.error, 'INVALID_ARGUMENT', ['job']).message).toBe(
        `job.tasks[0].splits[0].work.input must nest arrays and objects at most ${MAX_JSON_DEPTH} deep`,
      );
    expect(jobSpecSchema.safeParse(job(nested(MAX_JSON_DEPTH))).success).toBe(true);
  });

  // A WeakSet of inputs found shallow let an input through unwalked on its next check: a caller
  // who reused one and made it deeper in between had it accepted.
  it('walks an input again on each check: one made deeper since is refused', () => {
    const job = (input: unknown) => ({
      class: 'c',
      tasks: [{ splits: [{ kind: 'leaf', work: { kernel: 'spin', input, totalNanos: 1 } }] }],
    });
    const input: unknown[] = [1];
    expect(jobSpecSchema.safeParse(job(input)).success).toBe(true);
    input.push(nested(MAX_JSON_DEPTH + 1));
    expect(jobSpecSchema.safeParse(job(input)).success).toBe(false);
  });
});

describe('integer limits', () => {
  it('names a knob’s own maximum at 1e308, not the safe-integer range', () => {
    const result = engineConfigPatchSchema.safeParse({ workers: 1e308 });
    expect(result.success).toBe(false);
    if (!result.success)
      expect(schemaError(result.error, 'INVALID_CONFIG').message).toBe('workers must be <= 256');
    expect(() => parseEngineConfig({ workers: 4 })).not.toThrow();
    expect(
      refusal(() => parseWorkload({ classes: [klass({ basePriority: 1e308 })] })).message,
    ).toBe('classes[0].basePriority must be <= 100');
  });
});
