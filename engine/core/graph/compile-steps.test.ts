// Building a graph in bounded steps gives the same graph, and the same errors, as building it in
// one piece, while pausing about once per budget of work (what lets a live host keep its frames).
import { describe, expect, it } from 'vitest';
import { parseGraphDocument, type GraphDocument } from '../../../shared/graph.ts';
import { compileDocument, compileDocumentSteps, type CompiledGraph } from './compile.ts';
import { schedLabErrorOf } from '../../../shared/testing.ts';

/** Drives the steps to the end, counting the pauses. */
function stepped(doc: GraphDocument, units: number): { graph: CompiledGraph; pauses: number } {
  const steps = compileDocumentSteps(doc, units);
  for (let pauses = 0; ; pauses++) {
    const r = steps.next();
    if (r.done === true) return { graph: r.value, pauses };
  }
}

/** Every field of a compiled graph as plain data. */
function plain(g: CompiledGraph) {
  return {
    ...g,
    nodeId: undefined,
    ids: Array.from({ length: g.nodeCount }, (_, i) => g.nodeId(i)),
  };
}

const docs: Record<string, object> = {
  wavefront: { generator: 'wavefront', rows: 40, cols: 30, cost: 1, retries: 2 },
  'layered-random': { generator: 'layered-random', levels: 30, width: 20, seed: 9, maxCost: 3 },
  'erdos-renyi': { generator: 'erdos-renyi', nodes: 400, p: 0.02, seed: 3, failProbability: 0.1 },
  'binary-tree': { generator: 'binary-tree', depth: 9, cost: 2 },
  chain: { generator: 'chain', length: 500 },
  independent: { generator: 'independent', count: 700 },
  diamond: { generator: 'diamond', width: 4, longCost: 50 },
  explicit: {
    nodes: [
      { id: 'a', cost: 1, kernel: 'spin' },
      { id: 'b', cost: 2, retries: 1 },
      { id: 'c', cost: 3, failProbability: 0.5 },
      { id: 'd', cost: 4, kernel: 'spin' },
    ],
    edges: [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'b', to: 'd' },
      { from: 'c', to: 'd' },
    ],
  },
};

describe('compileDocumentSteps', () => {
  for (const [name, raw] of Object.entries(docs)) {
    it(`builds the same ${name} graph as compileDocument, whatever the step`, () => {
      const doc = parseGraphDocument(raw);
      const whole = compileDocument(doc);
      for (const units of [1, 7, 1000]) {
        const { graph, pauses } = stepped(doc, units);
        expect(plain(graph)).toEqual(plain(whole));
        // Every node and every edge goes through at least one pass: that many units at least.
        if (name !== 'diamond' && name !== 'explicit') {
          const work = whole.nodeCount + whole.edgeCount;
          expect(pauses).toBeGreaterThanOrEqual(Math.floor(work / units));
        }
      }
    });
  }

  it('a large graph pauses many times at a modest step, and never in one piece', () => {
    const doc = parseGraphDocument({ generator: 'wavefront', rows: 256, cols: 256 });
    const { graph, pauses } = stepped(doc, 4096);
    expect(graph.nodeCount).toBe(65_536);
    // Generation and five passes of compiling over ≈ 3 × 65,536 nodes and edges.
    expect(pauses).toBeGreaterThan(100);
  });

  it('refuses a cycle, a dangling edge and too many edges with the same coded errors', () => {
    const ring = {
      nodes: Array.from({ length: 50 }, (_, i) => ({ id: `r${i}` })),
      edges: Array.from({ length: 50 }, (_, i) => ({ from: `r${i}`, to: `r${(i + 1) % 50}` })),
    };
    const dangling = { nodes: [{ id: 'a' }], edges: [{ from: 'a', to: 'zz' }] };
    // Past the edge limit: the schema refuses it first; this is the generator's own guard.
    const dense = {
      ...parseGraphDocument({ generator: 'erdos-renyi', nodes: 100_000, p: 0 }),
      p: 1,
    };
    for (const doc of [parseGraphDocument(ring), parseGraphDocument(dangling), dense]) {
      const whole = schedLabErrorOf(() => compileDocument(doc));
      const parts = schedLabErrorOf(() => stepped(doc, 3));
      expect(parts.toInfo()).toEqual(whole.toInfo());
      expect(parts.code).toBe('INVALID_GRAPH');
    }
  });
});
