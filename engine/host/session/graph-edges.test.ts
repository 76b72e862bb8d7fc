// A graph run's edges travel on its frames (while few), so the app's trace export can draw them
// as flow events, as the CLI's trace does.
import { describe, expect, it } from 'vitest';
import { GRAPH_FRAME_MAX_EDGES } from '../../../shared/protocol.ts';
import { Session } from './session.ts';

const chain = {
  nodes: [
    { id: 'load', cost: 10 },
    { id: 'parse', cost: 10 },
    { id: 'emit', cost: 10 },
  ],
  edges: [
    { from: 'load', to: 'parse' },
    { from: 'parse', to: 'emit' },
  ],
};

describe('graph edges on frames', () => {
  it('a small run carries its edges as [graph, from, to] node indices', async () => {
    const s = new Session({ config: { workers: 2 } });
    await s.graphs.start('chain', chain);
    const f = s.advance(100).at(-1)!;
    expect(f.graph?.edges).toEqual([
      [0, 0, 1],
      [0, 1, 2],
    ]);
    expect(s.snapshot().frame.graph?.edges).toHaveLength(2);
    for (let i = 0; i < 100 && s.graphs.active; i++) {
      s.advance(100);
      await new Promise((r) => setImmediate(r));
    }
    await s.close();
  });

  it(`a run with more than ${GRAPH_FRAME_MAX_EDGES} edges leaves them off`, async () => {
    const s = new Session({ config: { workers: 2 } });
    await s.graphs.start('big', { generator: 'binary-tree', depth: 10, cost: 1 });
    const f = s.advance(100).at(-1)!;
    expect(f.graph?.nodes.total).toBeGreaterThan(GRAPH_FRAME_MAX_EDGES);
    expect(f.graph?.edges).toBeUndefined();
    // Closed while the run is still going: the session lets its cancelled nodes end.
    expect(s.graphs.active).toBe(true);
    await s.close();
    expect(s.graphs.run?.section().state).toBe('cancelled');
  });
});
