// The app's path: a graph preset started in the live session on real threads.
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame } from '../../../shared/protocol.ts';
import { startLiveSession, type LiveSession } from '../server/live-session.ts';

let live: LiveSession | null = null;
afterEach(async () => {
  await live?.close();
  live = null;
});

describe('graph runs in the live threads session', () => {
  it('runs the diamond preset at launch: node spans in frames, every node succeeded', async () => {
    live = await startLiveSession({ preset: 'diamond', config: { workers: 2 }, frameHz: 20 });
    const frames: Frame[] = [];
    live.onFrame((f) => frames.push(f));
    const run = live.session.graphs.run;
    expect(run).not.toBeNull();
    await run!.done;
    frames.push(live.session.frame());
    const g = frames.at(-1)!.graph!;
    expect(g).toMatchObject({ state: 'succeeded', executor: 'central', name: 'diamond' });
    expect(g.nodes).toMatchObject({ total: 7, succeeded: 7 });
    // Real time: at least the critical path (A 10 + B 100 + D 10 ms of spinning).
    expect(g.metrics!.makespanMs).toBeGreaterThanOrEqual(120);
    // Measured on threads (at least what was spun), the graph's own 120 ms beside it.
    expect(g.metrics!.declaredCriticalPathMs).toBe(120);
    expect(g.metrics!.criticalPathMs).toBeGreaterThanOrEqual(120);
    expect(g.metrics!.criticalPathMs).toBeLessThanOrEqual(g.metrics!.makespanMs);
    expect(g.metrics!.efficiency).toBeLessThanOrEqual(1);
    const nodes = new Set<string>();
    for (const f of frames) {
      const c = f.spans;
      for (let i = 0; i < c.count; i++) {
        const n = c.node?.[i] ?? -1;
        if (n < 0) continue;
        nodes.add(c.names[n]!);
        expect(c.job[i]).toBe(g.jobId);
        expect(c.end[i]!).toBeLessThanOrEqual(f.timeNanos + 1e6);
      }
    }
    expect(nodes.size).toBe(7);
    expect(live.session.executor.paused).toBe(false);
  }, 30_000);
});
