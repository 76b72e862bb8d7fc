import { describe, expect, it } from 'vitest';
import { SplitIndex } from './split-index.ts';

interface Node {
  queued: boolean;
  split: unknown;
  id: number;
}

describe('SplitIndex', () => {
  it('rejects a queued id, finds queued nodes and hands back idle ones for reuse', () => {
    const index = new SplitIndex<Node>();
    const node = { id: 7, queued: false, split: null };
    expect(index.idleNode(7)).toBeUndefined();
    index.enqueued(7, node, true);
    expect(() => index.idleNode(7)).toThrow(
      expect.objectContaining({ code: 'DUPLICATE_ID', field: 'split.id' }),
    );
    expect(index.queuedNode(7)).toBe(node);
    index.dequeued(node);
    expect(index.queuedNode(7)).toBeUndefined();
    expect(index.idleNode(7)).toBe(node);
    expect(index.size).toBe(0);
  });

  it('stays bounded when ever-new ids pass through', () => {
    const index = new SplitIndex<Node>();
    const live: Node[] = [];
    for (let id = 0; id < 50_000; id++) {
      const node = { id, queued: false, split: null };
      index.enqueued(id, node, true);
      live.push(node);
      if (live.length > 10) index.dequeued(live.shift()!);
      expect(index.kept).toBeLessThanOrEqual(Math.max(1024, 2 * index.size) + 1);
    }
    expect(index.size).toBe(10);
    for (const node of live) expect(index.queuedNode(node.id)).toBe(node);
  });
});
