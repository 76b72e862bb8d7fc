import { describe, expect, it } from 'vitest';
import { SchedLabError } from '../../../shared/errors.ts';
import { planGraphs } from './graph-docs.ts';

function refusal(raw: unknown): { code: string; message: string; field?: string } {
  try {
    planGraphs(raw, { graphPolicy: null, executor: null, graphErrorMode: null });
  } catch (e) {
    if (e instanceof SchedLabError) return e.toInfo();
    throw e;
  }
  throw new Error('the graph was accepted');
}

const ok = { nodes: [{ id: 'a', cost: 1 }], edges: [] };
const dangling = { nodes: [{ id: 'a', cost: 1 }], edges: [{ from: 'a', to: 'zz' }] };

describe('planGraphs names a bad document where it sits', () => {
  it('a lone document is named from its own root', () => {
    expect(refusal(dangling)).toEqual({
      code: 'INVALID_GRAPH',
      message: 'edges[0].to names no node "zz"',
      field: 'edges[0].to',
    });
  });

  it('in a list, a bad shape, a dangling edge and a cycle are named graph[i]…', () => {
    expect(refusal([ok, { nodes: [{ id: 'a', cost: -1 }] }])).toEqual({
      code: 'INVALID_WORKLOAD',
      message: 'graph[1].nodes[0].cost must be >= 0',
      field: 'graph[1].nodes[0].cost',
    });
    expect(refusal([ok, 5])).toEqual({
      code: 'INVALID_WORKLOAD',
      message: 'graph[1] must be an object',
      field: 'graph[1]',
    });
    expect(refusal([ok, dangling])).toEqual({
      code: 'INVALID_GRAPH',
      message: 'graph[1].edges[0].to names no node "zz"',
      field: 'graph[1].edges[0].to',
    });
    const cycle = {
      nodes: [
        { id: 'a', cost: 1 },
        { id: 'b', cost: 1 },
      ],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
      ],
    };
    expect(refusal([cycle, ok])).toMatchObject({
      code: 'INVALID_GRAPH',
      field: 'graph[0].edges',
      message: expect.stringMatching(/^graph\[0\]\.edges form a cycle/) as unknown,
    });
  });

  it('an unknown kernel is named at the node that uses it', () => {
    const doc = {
      nodes: [
        { id: 'a', kernel: 'spin' },
        { id: 'b', kernel: 'nope' },
      ],
    };
    const e = refusal(doc);
    expect(e).toMatchObject({ code: 'UNKNOWN_KERNEL', field: 'nodes[1].kernel' });
    expect(e.message).toMatch(
      /^nodes\[1\]\.kernel \(node "b"\): the central executor has no kernel "nope"/,
    );
    expect(refusal([ok, doc])).toMatchObject({ field: 'graph[1].nodes[1].kernel' });
  });

  it('takes spin-us, the cost kernel by its other name, on either executor (as the CLI does)', () => {
    const doc = { nodes: [{ id: 'a', kernel: 'spin-us', cost: 1 }], edges: [] };
    for (const executor of ['central', 'stealing'] as const) {
      expect(() =>
        planGraphs(doc, { graphPolicy: null, executor, graphErrorMode: null }),
      ).not.toThrow();
    }
  });
});
