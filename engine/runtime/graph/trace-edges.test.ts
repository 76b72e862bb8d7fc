import { describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument } from '../../core/graph/compile.ts';
import { graphSplitEdges } from './trace-edges.ts';

describe('graphSplitEdges', () => {
  it('lists edges as split-id pairs, offset by the run’s split-id base and capped', () => {
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 4 }));
    expect(graphSplitEdges(g, 100)).toEqual([
      [100, 101],
      [101, 102],
      [102, 103],
    ]);
    expect(graphSplitEdges(g, 0, 2)).toEqual([
      [0, 1],
      [1, 2],
    ]);
  });
});
