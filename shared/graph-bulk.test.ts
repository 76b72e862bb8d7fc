// A graph's nodes and edges in their plain forms skip zod's parse of each entry (it was most of a
// 2^20-node document's check). The shortcut may only take what the schema takes unchanged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkedGraphDocument,
  explicitGraphSchema,
  graphEdgeSchema,
  graphNodeSchema,
  isPlainEdge,
  isPlainNode,
  parseGraphDocument,
} from './graph.ts';
import { parseWorkload } from './workload.ts';

/** Values near the schema's edges: lengths 0, 1, 200, 201, costs past a day, odd types. */
const text = fc.oneof(
  fc.constantFrom('', 'a', 'x'.repeat(200), 'x'.repeat(201)),
  fc.string({ maxLength: 3 }),
);
const value = fc.oneof(
  text,
  fc.constantFrom(0, -1, 1.5, 86_400_000, 86_400_001, NaN, Infinity, null, undefined, true),
  fc.double(),
  fc.constant({}),
  fc.constant([]),
);
const key = fc.constantFrom('id', 'cost', 'from', 'to', 'kernel', 'retries', 'x', '__proto__');
const entry = fc.oneof(
  fc.dictionary(key, value, { maxKeys: 4 }),
  fc.record({ id: text, cost: value }, { requiredKeys: ['id'] }),
  fc.record({ from: text, to: text }),
  value,
);

describe('plain nodes and edges', () => {
  it('the shortcut takes only what the schema takes, unchanged', () => {
    fc.assert(
      fc.property(entry, (v) => {
        if (isPlainNode(v)) expect(graphNodeSchema.parse(v)).toEqual(v);
        if (isPlainEdge(v)) expect(graphEdgeSchema.parse(v)).toEqual(v);
      }),
      { numRuns: 5000 },
    );
  });

  it('an entry the shortcut leaves is refused by the schema, named where it sits', () => {
    const doc = {
      nodes: [{ id: 'a' }, { id: 'b', cost: -1 }],
      edges: [{ from: 'a', to: 'b' }],
    };
    expect(() => parseGraphDocument(doc)).toThrow('nodes[1].cost must be >= 0');
    const edges = { nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'a' }, { from: 'a' }] };
    expect(() => parseGraphDocument(edges, ['graph'])).toThrow('graph.edges[1].to');
    const kernel = { nodes: [{ id: 'a', kernel: 'spin', retries: 2 }] };
    expect(explicitGraphSchema.parse(kernel).nodes).toEqual([
      { id: 'a', kernel: 'spin', retries: 2 },
    ]);
  });

  it('the input document is not edited', () => {
    const nodes = [{ id: 'a', retries: 1 }];
    explicitGraphSchema.parse({ nodes });
    expect(nodes).toEqual([{ id: 'a', retries: 1 }]);
  });
});

describe('one parse a run', () => {
  it("a run takes each graph document as its workload's check parsed it", () => {
    const raw = { nodes: [{ id: 'a' }, { id: 'b' }], edges: [{ from: 'a', to: 'b' }] };
    const workload = parseWorkload({ name: 'w', graph: raw });
    const doc = checkedGraphDocument(workload.graph);
    expect(checkedGraphDocument(workload.graph)).toBe(doc);
    // The public parse parses every time.
    expect(parseGraphDocument(raw)).not.toBe(doc);
    expect(parseGraphDocument(raw)).toEqual(doc);
  });
});
