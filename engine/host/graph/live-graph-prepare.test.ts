// A large graph is prepared between frames: a live session loading one keeps sending frames until
// the command is answered, the answer and the run are those of the one-piece build, and a second
// load while the first is prepared abandons the first.
import { afterEach, describe, expect, it } from 'vitest';
import { parseGraphDocument } from '../../../shared/graph.ts';
import { compileDocument } from '../../core/graph/compile.ts';
import { liveWorkloads } from '../server/live-workloads.ts';
import { Session } from '../session/index.ts';
import { GRAPH_JOB_BASE, PREPARE_STEP_UNITS } from './session-graphs.ts';

let session: Session | null = null;
afterEach(async () => {
  await session?.close();
  session = null;
});

/** A live sim session on the wall clock, counting the frames it sends. */
function liveSession(): { s: Session; frames: () => number } {
  const s = new Session({ workloads: liveWorkloads(), config: { workers: 4 }, frameHz: 240 });
  session = s;
  let count = 0;
  s.onFrame(() => count++);
  s.start();
  return { s, frames: () => count };
}

/** Resolves at the session's next frame: a command sent before is then under way. */
const nextFrame = (s: Session) =>
  new Promise<void>((resolve) => {
    const off = s.onFrame(() => {
      off();
      resolve();
    });
  });

/** 2^18 nodes (a quarter of the limit), ≈ 2^19 edges: many steps at the session's budget. */
const big = { generator: 'wavefront', rows: 512, cols: 512, cost: 1 };

describe('a large graph is prepared off the frame path', () => {
  it('frames keep coming while it is prepared; the answer and the run are the same', async () => {
    const { s, frames } = liveSession();
    // The build is many steps long (the node costs alone take four), each ending in a turn of
    // the event loop.
    expect(big.rows * big.cols).toBeGreaterThanOrEqual(4 * PREPARE_STEP_UNITS);
    const before = frames();
    const r = await s.handleCommand({ type: 'loadWorkload', workload: big });
    const during = frames() - before;
    // In one piece the session sends no frame between the command and its answer.
    expect(during, `${during} frames while the graph was prepared`).toBeGreaterThanOrEqual(3);
    expect(r).toEqual({
      ok: true,
      result: {
        workload: 'graph',
        graph: {
          jobId: GRAPH_JOB_BASE + 1,
          name: 'graph',
          executor: 'central',
          policy: 'fifo',
          graphs: 1,
          nodes: 512 * 512,
        },
      },
    });
    // The run holds the graph the one-piece build makes.
    const run = s.graphs.run!;
    const whole = compileDocument(parseGraphDocument(big));
    const graph = run.plan.graphs[0]!;
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    for (const key of ['inDegree', 'successorStart', 'successors', 'topoOrder', 'bLevel'] as const)
      expect(bytes(graph[key]).equals(bytes(whole[key])), key).toBe(true);
    expect([graph.workNanos, graph.criticalPathNanos]).toEqual([
      whole.workNanos,
      whole.criticalPathNanos,
    ]);
    const section = s.frame().graph!;
    expect(section).toMatchObject({ state: 'running', name: 'graph', graphs: 1 });
    expect(section.nodes.total).toBe(512 * 512);
    expect(s.executor.paused).toBe(false); // a graph pauses nothing: its nodes are executor jobs
  }, 60_000);

  it('a second load while the first is prepared abandons the first', async () => {
    const { s } = liveSession();
    const first = s.handleCommand({ type: 'loadWorkload', workload: big });
    await nextFrame(s);
    const second = s.handleCommand({ type: 'runPreset', preset: 'diamond' });
    const [a, b] = await Promise.all([first, second]);
    expect(a).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(a.ok ? '' : a.error.message).toContain('abandoned');
    // Only the preset ever ran: the first graph never started (its job id was never taken).
    expect(b).toMatchObject({
      ok: true,
      result: { graph: { jobId: GRAPH_JOB_BASE + 1, name: 'diamond', nodes: 7 } },
    });
    expect(s.graphs.run?.plan.graphs[0]?.nodeCount).toBe(7);
  }, 60_000);

  it('a regular workload or cancelAll abandons a graph being prepared', async () => {
    const { s } = liveSession();
    const graph = s.handleCommand({ type: 'loadWorkload', workload: big });
    await nextFrame(s);
    const cancel = s.handleCommand({ type: 'cancelAll' });
    expect(await graph).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(await cancel).toMatchObject({ ok: true });
    expect(s.graphs.run).toBeNull();
    expect(s.executor.paused).toBe(false);

    const again = s.handleCommand({ type: 'loadWorkload', workload: big });
    await nextFrame(s);
    const preset = await s.handleCommand({ type: 'runPreset', preset: 'batch-service' });
    expect(await again).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(preset).toMatchObject({ ok: true });
    expect(s.graphs.run).toBeNull();
  }, 60_000);
});
