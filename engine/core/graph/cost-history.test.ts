import { describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument } from './compile.ts';
import { CostHistory, withCosts } from './cost-history.ts';
import { GraphRun } from './graph-run.ts';

describe('CostHistory', () => {
  it('averages measurements with weight alpha and forgets the least recent key beyond capacity', () => {
    const h = new CostHistory(0.5, 2);
    h.record('a', 100);
    h.record('a', 300);
    expect(h.estimate('a')).toBe(200);
    h.record('b', 1);
    h.record('a', 200);
    h.record('c', 1); // evicts b, the least recently recorded
    expect([h.estimate('a'), h.estimate('b'), h.estimate('c')]).toEqual([200, undefined, 1]);
    expect(() => new CostHistory(0)).toThrow(/alpha/);
  });

  it('re-ranks critical-path by measured costs when the spec has none', () => {
    // Without costs every node ties; history says C is the long one, so C's branch goes first.
    const g = compileDocument(
      parseGraphDocument({
        nodes: [{ id: 'B' }, { id: 'C' }, { id: 'D' }],
        edges: [{ from: 'C', to: 'D' }],
      }),
    );
    const h = new CostHistory();
    h.record('C', 5e6);
    h.record('D', 1e6);
    const ranked = withCosts(g, h);
    expect(ranked.criticalPathNanos).toBe(6e6);
    expect(ranked.workNanos).toBe(6e6);
    expect(new GraphRun(g, { policy: 'critical-path', errorMode: 'continue' }, 0).next()).toBe(0);
    expect(new GraphRun(ranked, { policy: 'critical-path', errorMode: 'continue' }, 0).next()).toBe(
      1,
    );
  });
});
