import { describe, expect, it } from 'vitest';
import { parseGraphDocument, type GeneratorSpec } from '../../../shared/graph.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import { compileGraph } from './compile.ts';
import { generateGraph } from './generators.ts';

const gen = (doc: object) => generateGraph(parseGraphDocument(doc) as GeneratorSpec);
const edges = (g: { from: Int32Array; to: Int32Array }) =>
  Array.from(g.from, (a, k): [number, number] => [a, g.to[k]!]);

describe('graph generators', () => {
  it('build Taskflow shapes with the expected node and edge counts', () => {
    expect(gen({ generator: 'chain', length: 5 })).toMatchObject({ nodeCount: 5 });
    expect(edges(gen({ generator: 'chain', length: 3 }))).toEqual([
      [0, 1],
      [1, 2],
    ]);
    const tree = compileGraph(gen({ generator: 'binary-tree', depth: 4 }));
    expect([tree.nodeCount, tree.edgeCount]).toEqual([15, 14]);
    expect(Array.from(tree.inDegree).filter((d) => d === 0)).toHaveLength(1);
    expect(gen({ generator: 'independent', count: 7 }).from).toHaveLength(0);
    const wave = compileGraph(gen({ generator: 'wavefront', rows: 3, cols: 4, cost: 1 }));
    expect([wave.nodeCount, wave.edgeCount]).toEqual([12, 2 * 3 * 4 - 3 - 4]);
    expect(wave.criticalPathNanos).toBe((3 + 4 - 1) * 1e6);
  });

  it('gives each layered-random node 1–4 distinct successors in the next level, same seed same graph', () => {
    const doc = { generator: 'layered-random', levels: 20, width: 10, seed: 7 };
    const g = gen(doc);
    const out = new Map<number, number[]>();
    for (const [a, b] of edges(g)) {
      expect(Math.floor(b / 10)).toBe(Math.floor(a / 10) + 1);
      out.set(a, [...(out.get(a) ?? []), b]);
    }
    for (let v = 0; v < 190; v++) {
      const s = out.get(v) ?? [];
      expect(s.length).toBeGreaterThanOrEqual(1);
      expect(s.length).toBeLessThanOrEqual(4);
      expect(new Set(s).size).toBe(s.length);
    }
    expect(edges(gen(doc))).toEqual(edges(g));
    expect(edges(gen({ ...doc, seed: 8 }))).not.toEqual(edges(g));
  });

  it('refuses a maxCost below cost, which it would have ignored', () => {
    for (const generator of ['layered-random', 'erdos-renyi']) {
      const shape = generator === 'layered-random' ? { levels: 3, width: 3 } : { nodes: 9, p: 0.3 };
      expect(() => gen({ generator, ...shape, cost: 5, maxCost: 1 })).toThrow(
        expect.objectContaining({ code: 'INVALID_WORKLOAD', field: 'maxCost' }),
      );
      expect(() => gen({ generator, ...shape, cost: 5, maxCost: 5 })).not.toThrow();
    }
  });

  it('draws Erdős–Rényi edges forward only, none at p=0, all at p=1', () => {
    const g = gen({ generator: 'erdos-renyi', nodes: 60, p: 0.2, seed: 3 });
    for (const [a, b] of edges(g)) expect(a).toBeLessThan(b);
    expect(g.from.length).toBeGreaterThan(200); // ≈ 0.2 · 1770 = 354
    expect(g.from.length).toBeLessThan(520);
    expect(gen({ generator: 'erdos-renyi', nodes: 30, p: 0 }).from).toHaveLength(0);
    expect(gen({ generator: 'erdos-renyi', nodes: 30, p: 1 }).from).toHaveLength(435);
    // A p so small that 1 − p rounds to 1: before, every skip was −Infinity and the graph was
    // refused for passing the edge cap.
    expect(gen({ generator: 'erdos-renyi', nodes: 10, p: 1e-17 }).from).toHaveLength(0);
    // Refused by the schema up front; the generator keeps its own guard for unparsed specs.
    expect(() => gen({ generator: 'erdos-renyi', nodes: 100_000, p: 0.5 })).toThrow(
      expect.objectContaining({ code: 'INVALID_WORKLOAD', field: 'p' }),
    );
    const unparsed = { generator: 'erdos-renyi', nodes: 100_000, p: 0.5, seed: 1, cost: 0 };
    expect(() => generateGraph(unparsed as GeneratorSpec)).toThrow(
      expect.objectContaining({ code: 'INVALID_GRAPH', field: 'p' }),
    );
  });

  it('varies costs between cost and maxCost with the seed', () => {
    const g = gen({
      generator: 'layered-random',
      levels: 5,
      width: 5,
      cost: 1,
      maxCost: 3,
      seed: 2,
    });
    for (const c of g.costNanos) expect(c >= 1e6 && c <= 3e6).toBe(true);
    expect(new Set(g.costNanos).size).toBeGreaterThan(10);
  });

  it('rejects generator specs with errors naming the field', () => {
    const field = (doc: object) => {
      try {
        parseGraphDocument(doc);
      } catch (e) {
        return e instanceof SchedLabError ? e.field : 'not a SchedLabError';
      }
      return 'accepted';
    };
    expect(field({ generator: 'wavefront', rows: 0, cols: 3 })).toBe('rows');
    expect(field({ generator: 'erdos-renyi', nodes: 10, p: 2 })).toBe('p');
    expect(field({ generator: 'chain', length: 3, policy: 'random' })).toBe('policy');
    expect(field({ generator: 'spiral' })).toBe('generator');
    expect(field({ nodes: [{ id: 'a', cost: -1 }] })).toBe('nodes[0].cost');
  });
});

describe('the edge limit on a drawn graph', () => {
  it('refuses an Erdős–Rényi draw that lands past it, though its expected count is within', () => {
    // 4096 nodes at p = 0.50006: expected just under 4,194,304 edges; seed 4 draws more.
    const draw = () => gen({ generator: 'erdos-renyi', nodes: 4096, p: 0.50006, seed: 4 });
    expect(draw).toThrow(/p: the graph would exceed 4194304 edges/);
  });
});
