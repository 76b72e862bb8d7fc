import { describe, expect, it } from 'vitest';
import { compileGraph } from '../../core/graph/compile.ts';
import { WorkDeque, ringCapacity } from './deque.ts';
import type { StealingKernel } from './kernels.ts';
import { CTL_HUNGRY, allocateRun, resetRun, viewRun } from './layout.ts';
import { runWorkerLoop } from './worker-loop.ts';

/** One root fanning out to `leaves` leaves. */
function fan(leaves: number) {
  const n = leaves + 1;
  return compileGraph({
    nodeCount: n,
    from: new Int32Array(leaves),
    to: Int32Array.from({ length: leaves }, (_, i) => i + 1),
    costNanos: new Float64Array(n),
    retries: new Uint8Array(n),
    failProbability: null,
    kernels: ['probe'],
    kernelOf: new Uint16Array(n),
    ids: null,
  });
}

describe('private stacks (worker-loop.ts)', () => {
  it('keeps readied nodes off the deque until a peer is hungry, then shares them all', () => {
    const g = fan(100);
    const v = viewRun(allocateRun(g, 2));
    resetRun(v, g.nodeCount, { verify: true, timed: false });
    const deque = new WorkDeque(v.dequeMeta, v.dequeRing, 0, 0, ringCapacity(g.nodeCount));
    // Deque size seen by each node's kernel; the third node run makes a (pretend) peer hungry.
    const seen: number[] = [];
    const probe: StealingKernel = () => {
      seen.push(deque.size);
      if (seen.length === 3) Atomics.store(v.ctl, CTL_HUNGRY, 1);
      return true;
    };
    // Worker 1 never runs: worker 0 alone runs the graph (as warm.ts does).
    const stats = runWorkerLoop(v, {
      workerId: 0,
      workers: 2,
      failFast: true,
      verify: true,
      kernels: [probe],
      seed: 1,
      sampleEvery: 0,
      origin: process.hrtime.bigint(),
    });
    expect(stats.executed).toBe(g.nodeCount);
    expect(Array.from(v.runCount)).toEqual(new Array(g.nodeCount).fill(1));
    // The root, its first leaf (run in place) and the newest of the 99 on the private stack:
    // nothing on the deque.
    expect(seen.slice(0, 3)).toEqual([0, 0, 0]);
    // Once hungry: the 98 leaves left went onto the deque, where a thief could take them (the
    // next is popped from it before it runs).
    expect(seen[3]).toBe(97);
    expect(seen.at(-1)).toBe(0);
  });
});
