import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument, compileGraph, CYCLE_NODES_SHOWN } from './compile.ts';
import { indexExplicitGraph } from './indexed-graph.ts';
import { randomDag } from './random-dag.ts';
import { schedLabErrorOf } from '../../../shared/testing.ts';

const explicit = (nodes: string[], edges: [string, string][]) =>
  parseGraphDocument({
    nodes: nodes.map((id) => ({ id, cost: 1 })),
    edges: edges.map(([from, to]) => ({ from, to })),
  });

describe('compileGraph', () => {
  it('computes in-degree, successors, topological order, b-level and the critical path of the diamond', () => {
    const g = compileDocument(parseGraphDocument({ generator: 'diamond', longCost: 10, cost: 1 }));
    const id = (i: number) => g.nodeId(i);
    const index = (name: string) =>
      Array.from({ length: g.nodeCount }, (_, i) => id(i)).indexOf(name);
    const succ = (name: string) => {
      const v = index(name);
      return Array.from(
        g.successors.subarray(g.successorStart[v]!, g.successorStart[v + 1]!),
        id,
      ).sort();
    };
    expect(succ('A')).toEqual(['B', 'C']);
    expect(succ('C')).toEqual(['D', 'E']);
    expect(g.inDegree[index('D')]).toBe(2);
    expect(g.bLevel[index('A')]).toBe(12e6); // A(1) + B(10) + D(1)
    expect(g.bLevel[index('C')]).toBe(2e6);
    expect(g.criticalPathNanos).toBe(12e6);
    expect(g.workNanos).toBe(14e6);
    expect(Array.from(g.topoOrder, id).indexOf('D')).toBeGreaterThan(
      Array.from(g.topoOrder, id).indexOf('B'),
    );
  });

  it('rejects a cycle and names its nodes in edge order', () => {
    const e = schedLabErrorOf(() =>
      compileDocument(
        explicit(
          ['a', 'b', 'c', 'x'],
          [
            ['x', 'a'],
            ['a', 'b'],
            ['b', 'c'],
            ['c', 'a'],
          ],
        ),
      ),
    );
    expect(e.code).toBe('INVALID_GRAPH');
    expect(
      ['a → b → c → a', 'b → c → a → b', 'c → a → b → c'].map((c) => `edges form a cycle: ${c}`),
    ).toContain(e.message);
    expect(e.field).toBe('edges');
  });

  it('rejects a self-loop as a cycle of one node', () => {
    expect(schedLabErrorOf(() => compileDocument(explicit(['a'], [['a', 'a']]))).message).toBe(
      'edges form a cycle: a → a',
    );
  });

  it('rejects duplicate ids and unknown endpoints naming the field', () => {
    const dup = schedLabErrorOf(() => compileDocument(explicit(['a', 'a'], [])));
    expect(dup.code).toBe('DUPLICATE_ID');
    expect(dup.field).toBe('nodes[1].id');
    expect(dup.message).toBe('nodes[1].id duplicates node id "a"');
    const unknown = schedLabErrorOf(() => compileDocument(explicit(['a'], [['a', 'zz']])));
    expect(unknown.code).toBe('INVALID_GRAPH');
    expect(unknown.field).toBe('edges[0].to');
    expect(unknown.message).toBe('edges[0].to names no node "zz"');
  });

  it('rejects an empty graph', () => {
    expect(schedLabErrorOf(() => indexExplicitGraph({ nodes: [], edges: [] })).code).toBe(
      'INVALID_GRAPH',
    );
    expect(schedLabErrorOf(() => parseGraphDocument({ nodes: [] })).field).toBe('nodes');
  });

  it('always rejects a random DAG plus one back edge, naming a real cycle', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 25 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
            path: fc.uniqueArray(fc.nat(n - 1), { minLength: 2, maxLength: n }),
            extra: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
          }),
        ),
        ({ n, order, path, extra }) => {
          // A path p0 → p1 → … → pk plus pk → p0 closes a cycle; extra edges only go "forward".
          const sorted = [...path].sort((a, b) => a - b);
          const pairs: [number, number][] = [...extra];
          for (let i = 0; i + 1 < sorted.length; i++) pairs.push([sorted[i]!, sorted[i + 1]!]);
          const dag = randomDag({ costs: new Array<number>(n).fill(1), pairs, order });
          const from = Int32Array.from([...dag.from, order[sorted.at(-1)!]!]);
          const to = Int32Array.from([...dag.to, order[sorted[0]!]!]);
          const e = schedLabErrorOf(() => compileGraph({ ...dag, from, to }));
          expect(e.code).toBe('INVALID_GRAPH');
          const names = e.message.replace('edges form a cycle: ', '').split(' → ');
          expect(names[0]).toBe(names.at(-1));
          const edges = new Set(Array.from(from, (a, k) => `n${a}>n${to[k]}`));
          for (let i = 0; i + 1 < names.length; i++)
            expect(edges.has(`${names[i]}>${names[i + 1]}`)).toBe(true);
        },
      ),
    );
  });

  it('orders every edge forward in the topological order of random DAGs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((n) =>
          fc.record({
            order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
            pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
            costs: fc.array(fc.nat(100), { minLength: n, maxLength: n }),
          }),
        ),
        (input) => {
          const g = compileGraph(randomDag(input));
          const position = new Int32Array(g.nodeCount);
          g.topoOrder.forEach((v, i) => (position[v] = i));
          for (let v = 0; v < g.nodeCount; v++) {
            let best = 0;
            for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
              const s = g.successors[k]!;
              expect(position[s]).toBeGreaterThan(position[v]!);
              best = Math.max(best, g.bLevel[s]!);
            }
            expect(g.bLevel[v]).toBe(input.costs[v]! + best);
          }
        },
      ),
    );
  });

  it('caps the cycle named for a huge ring: its first nodes and how many more', () => {
    const n = 100_000;
    const nodes = Array.from({ length: n }, (_, i) => ({ id: `n${i}` }));
    const edges = nodes.map((_, i) => ({ from: `n${i}`, to: `n${(i + 1) % n}` }));
    let message = '';
    try {
      compileDocument(parseGraphDocument({ nodes, edges }));
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^edges form a cycle: n\d+ → /);
    expect(message).toContain(`and ${n - CYCLE_NODES_SHOWN} more (${n} nodes in all)`);
    expect(message.length).toBeLessThan(1000);
  });
});
