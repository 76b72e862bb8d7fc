import { describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument } from './compile.ts';
import { GraphRun } from './graph-run.ts';
import { measuredCriticalPath } from './metrics.ts';

// a → b → d and a → c → d, every node declared at 10 ns.
const diamond = compileDocument(
  parseGraphDocument({
    nodes: ['a', 'b', 'c', 'd'].map((id) => ({ id, cost: 0.00001 })),
    edges: [
      { from: 'a', to: 'b' },
      { from: 'a', to: 'c' },
      { from: 'b', to: 'd' },
      { from: 'c', to: 'd' },
    ],
  }),
);

describe('the measured critical path (threads reports)', () => {
  it('is the longest path by measured run time, not by declared cost', () => {
    expect(diamond.criticalPathNanos).toBe(30);
    expect(measuredCriticalPath(diamond, Float64Array.from([5, 40, 7, 3]))).toBe(48);
  });

  it('makes the lower bound and efficiency from measured W and CP, with the declared beside', () => {
    const run = new GraphRun(diamond, { policy: 'fifo', errorMode: 'fail-fast' }, 0);
    // One worker, measured times 5, 40, 7, 3 ns: the run takes 55 ns.
    let now = 0;
    const ran = [5, 40, 7, 3];
    for (let v = run.next(); v >= 0; v = run.next()) {
      now += ran[v]!;
      run.succeeded(v, now, ran[v]!);
    }
    const measured = run.report(1, true);
    expect(measured).toMatchObject({
      makespanNanos: 55,
      workNanos: 55,
      criticalPathNanos: 48,
      lowerBoundNanos: 55,
      efficiency: 1,
      declaredWorkNanos: 40,
      declaredCriticalPathNanos: 30,
    });
    // The simulator's report keeps the declared critical path and has no declared fields.
    const declared = run.report(1);
    expect(declared.criticalPathNanos).toBe(30);
    expect(declared).not.toHaveProperty('declaredCriticalPathNanos');
  });

  it('a run that failed part-way takes its critical path from what ran: efficiency stays ≤ 1', () => {
    // Before: the declared CP of the whole graph (30 ns) over a 10 ns makespan, efficiency 3.
    const run = new GraphRun(diamond, { policy: 'fifo', errorMode: 'fail-fast' }, 0);
    const a = run.next();
    run.failed(a, 10, 10, 'boom'); // no retries: fail-fast stops the run
    const r = run.report(1);
    expect(r.counts).toMatchObject({ failed: 1, cancelled: 3 });
    expect(r).toMatchObject({ makespanNanos: 10, criticalPathNanos: 10, efficiency: 1 });
  });
});
