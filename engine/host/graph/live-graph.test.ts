// Graph runs inside a live session: central on the simulator, stealing on real threads.
import { afterEach, describe, expect, it } from 'vitest';
import type { Frame } from '../../../shared/protocol.ts';
import { liveWorkloads } from '../server/live-workloads.ts';
import { Session } from '../session/index.ts';
import { SAMPLED_SPANS } from '../../runtime/stealing/layout.ts';

let session: Session | null = null;
afterEach(async () => {
  await session?.close();
  session = null;
});

function simSession(workers = 4): Session {
  session = new Session({ workloads: liveWorkloads(), config: { workers } });
  return session;
}

/** Steps the sim session frame by frame, letting the graph's promises settle between frames. */
async function untilGraphEnds(s: Session, maxFrames = 5000): Promise<Frame[]> {
  const frames: Frame[] = [];
  while (frames.length < maxFrames) {
    frames.push(...s.advance(100));
    await new Promise((r) => setImmediate(r));
    const state = frames.at(-1)?.graph?.state;
    if (state !== 'running' && state !== 'starting') break;
  }
  frames.push(s.frame());
  return frames;
}

/** Every graph span of the frames as (node name, worker, start, end, job). */
function graphSpans(frames: Frame[]) {
  return frames.flatMap((f) => {
    const c = f.spans;
    return Array.from({ length: c.count }, (_, i) => i)
      .filter((i) => (c.node?.[i] ?? -1) >= 0)
      .map((i) => ({
        node: c.names[c.node![i]!]!,
        cls: c.names[c.cls[i]!]!,
        worker: c.worker[i]!,
        start: c.start[i]!,
        end: c.end[i]!,
        job: c.job[i]!,
      }));
  });
}

describe('graph runs in a live session', () => {
  it('runs a graph preset on the central executor: node spans, counts and metrics', async () => {
    const s = simSession(2);
    const before = s.executor.now();
    const result = await s.handleCommand({ type: 'runPreset', preset: 'diamond' });
    expect(result).toMatchObject({
      ok: true,
      result: { graph: { executor: 'central', policy: 'critical-path', nodes: 7 } },
    });
    // Nothing is paused: the graph's nodes are splits of the session's executor.
    expect(s.executor.paused).toBe(false);
    const frames = await untilGraphEnds(s);
    const mid = frames.find((f) => f.graph?.state === 'running' && f.graph.nodes.running > 0);
    for (const f of frames) {
      const { total, ...states } = f.graph!.nodes;
      expect(Object.values(states).reduce((x, y) => x + y, 0)).toBe(total);
      expect(f.graph!.nodes.running).toBeLessThanOrEqual(2);
    }
    expect(mid?.graph?.nodes.total).toBe(7);
    const last = frames.at(-1)!.graph!;
    expect(last).toMatchObject({ state: 'succeeded', name: 'diamond', sampleEvery: 1 });
    expect(last.nodes).toMatchObject({ total: 7, succeeded: 7, failed: 0, ready: 0 });
    // Diamond: A(10) → B(100) → D(10) is the critical path, work 10 + 100 + 2·(10+10) + 10.
    expect(last.metrics).toMatchObject({ workers: 2, criticalPathMs: 120, workMs: 160 });
    expect(last.metrics!.efficiency).toBeGreaterThan(0.9);
    expect(last.metrics!.grahamRatio).toBeLessThanOrEqual(1);
    const spans = graphSpans(frames);
    expect(new Set(spans.map((x) => x.node)).size).toBe(7);
    expect(spans.every((x) => x.job === last.jobId && x.cls === 'diamond')).toBe(true);
    expect(spans.every((x) => x.start >= before && x.worker < 2)).toBe(true);
    // A client connecting now still gets the graph's spans and section.
    const snap = s.snapshot();
    expect(snap.frame.graph?.state).toBe('succeeded');
    const late = graphSpans([{ ...snap.frame, spans: snap.spans }]);
    expect(late).toHaveLength(spans.length);
  }, 20_000);

  it('runs a central graph beside regular jobs on the one executor, its spans labelled', async () => {
    const s = simSession(2);
    const job = {
      class: 'batch',
      tasks: [{ splits: [{ kind: 'leaf', work: { kernel: 'spin', totalNanos: 200e6 } }] }],
    };
    await s.handleCommand({ type: 'runPreset', preset: 'diamond' });
    const frames = s.advance(5);
    // Submitted while the graph runs: it is not held back until the graph ends.
    expect(await s.handleCommand({ type: 'submitJob', job })).toMatchObject({ ok: true });
    frames.push(...(await untilGraphEnds(s)));
    frames.push(...s.runToIdle());
    const last = frames.at(-1)!;
    expect(last.graph).toMatchObject({ state: 'succeeded', nodes: { succeeded: 7 } });
    // The batch job ran while the graph did, and both shared the two workers.
    expect(s.executor.counters.succeeded).toBeGreaterThanOrEqual(2);
    const spans = graphSpans(frames);
    expect(new Set(spans.map((x) => x.node)).size).toBe(7);
    const batch = frames.flatMap((f) =>
      f.spans.cls
        .map((c, i) => [f.spans.names[c], f.spans.start[i]!, f.spans.node?.[i] ?? -1] as const)
        .filter(([name]) => name === 'batch'),
    );
    expect(batch.length).toBeGreaterThan(0);
    expect(batch.every(([, , node]) => node === -1)).toBe(true);
    const graphStart = Math.min(...spans.map((x) => x.start));
    const graphEnd = Math.max(...spans.map((x) => x.end));
    expect(batch.some(([, start]) => start > graphStart && start < graphEnd)).toBe(true);
  }, 20_000);

  it('refuses a cyclic graph document, naming the cycle, and keeps running', async () => {
    const s = simSession();
    const cyclic = {
      nodes: [{ id: 'load' }, { id: 'parse' }, { id: 'emit' }, { id: 'solo' }],
      edges: [
        { from: 'load', to: 'parse' },
        { from: 'parse', to: 'emit' },
        { from: 'emit', to: 'load' },
      ],
    };
    const r = await s.handleCommand({ type: 'loadWorkload', workload: cyclic });
    expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_GRAPH' } });
    const message = r.ok ? '' : r.error.message;
    for (const id of ['load', 'parse', 'emit']) expect(message).toContain(id);
    expect(message).not.toContain('solo');
    expect(s.graphs.run).toBeNull();
    expect(s.executor.paused).toBe(false);
    const job = {
      class: 'a',
      tasks: [{ splits: [{ kind: 'leaf', work: { kernel: 'spin', totalNanos: 1e6 } }] }],
    };
    expect(await s.handleCommand({ type: 'submitJob', job })).toMatchObject({ ok: true });
    s.advance(100);
    expect(s.executor.counters.succeeded).toBe(1);
  }, 10_000);

  it('applies configureGraph and per-run options over the document', async () => {
    const s = simSession(2);
    expect(
      await s.handleCommand({ type: 'configureGraph', config: { graphPolicy: 'fifo' } }),
    ).toMatchObject({ ok: true, graphConfig: { graphPolicy: 'fifo', executor: null } });
    const fifo = await s.handleCommand({ type: 'runPreset', preset: 'diamond' });
    expect(fifo).toMatchObject({ ok: true, result: { graph: { policy: 'fifo' } } });
    const fifoEnd = (await untilGraphEnds(s)).at(-1)!;
    expect(fifoEnd.graphConfig).toEqual({
      graphPolicy: 'fifo',
      executor: null,
      graphErrorMode: null,
    });
    const cp = await s.handleCommand({
      type: 'runPreset',
      preset: 'diamond',
      options: { graphPolicy: 'critical-path' },
    });
    expect(cp).toMatchObject({ ok: true, result: { graph: { policy: 'critical-path' } } });
    const cpEnd = (await untilGraphEnds(s)).at(-1)!;
    // FIFO starts the short branches first and finishes later than critical path.
    expect(cpEnd.graph!.metrics!.makespanMs).toBeLessThan(fifoEnd.graph!.metrics!.makespanMs);
    expect(
      await s.handleCommand({ type: 'configureGraph', config: { executor: 'nope' } }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_CONFIG', field: 'executor' } });
  }, 20_000);

  it('takes the graph knobs in configure too, as the controls send them', async () => {
    const s = simSession(2);
    const ok = await s.handleCommand({
      type: 'configure',
      config: { graphPolicy: 'sjf', executor: 'central', quantumMs: 5 },
    });
    expect(ok).toMatchObject({
      ok: true,
      config: { quantumMs: 5 },
      graphConfig: { graphPolicy: 'sjf', executor: 'central', graphErrorMode: null },
    });
    const bad = await s.handleCommand({
      type: 'configure',
      config: { executor: 'bogus', quantumMs: 7 },
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_CONFIG', field: 'executor' } });
    expect(s.executor.config.quantumMs).toBe(5);
    expect(s.frame().graphConfig).toEqual({
      graphPolicy: 'sjf',
      executor: 'central',
      graphErrorMode: null,
    });
  }, 10_000);

  it('runs a small graph on the stealing executor: sampled spans and steals', async () => {
    const s = simSession(4);
    const tree = {
      generator: 'binary-tree',
      depth: 9,
      cost: 0.5,
      kernel: 'spin',
      executor: 'stealing',
    };
    const r = await s.handleCommand({ type: 'loadWorkload', workload: tree });
    expect(r).toMatchObject({ ok: true, result: { graph: { executor: 'stealing', nodes: 511 } } });
    await s.graphs.run!.done;
    const f = s.frame();
    const g = f.graph!;
    // 511 nodes, at most SAMPLED_SPANS (256) spans: one node in 2.
    expect(g).toMatchObject({ state: 'succeeded', executor: 'stealing', sampleEvery: 2 });
    expect(g.nodes).toMatchObject({ total: 511, succeeded: 511 });
    expect(g.metrics!.steals).toBeGreaterThan(0);
    expect(g.metrics!.workMs).toBeGreaterThan(0);
    const spans = graphSpans([f]);
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.length).toBeLessThanOrEqual(SAMPLED_SPANS);
    expect(spans.every((x) => /^n\d+$/.test(x.node) && x.worker < 4)).toBe(true);
  }, 30_000);

  it('reports a failing node as the root cause; continue mode skips its descendants', async () => {
    const s = simSession(2);
    const doc = {
      errorMode: 'continue',
      nodes: [
        { id: 'extract', cost: 5 },
        { id: 'transform', cost: 5, failProbability: 1, retries: 1 },
        { id: 'load', cost: 5 },
        { id: 'audit', cost: 5 },
      ],
      edges: [
        { from: 'extract', to: 'transform' },
        { from: 'transform', to: 'load' },
        { from: 'extract', to: 'audit' },
      ],
    };
    const r = await s.handleCommand({ type: 'loadWorkload', workload: doc });
    expect(r).toMatchObject({ ok: true });
    const frames = await untilGraphEnds(s);
    const g = frames.at(-1)!.graph!;
    expect(g.state).toBe('failed');
    expect(g.nodes).toMatchObject({ succeeded: 2, failed: 1, skipped: 1, running: 0 });
    expect(g.error).toContain('transform');
    // Two attempts of the failing node (one retry), each a span.
    const failed = graphSpans(frames).filter((x) => x.node === 'transform');
    expect(failed).toHaveLength(2);
  }, 10_000);

  it('a list stopped by a fail-fast failure counts the graphs it never ran as cancelled', async () => {
    // Before: the finished run's frame kept the unrun graph's 10 nodes as ready.
    const s = simSession(2);
    const list = [
      { generator: 'chain', length: 3, cost: 5, failProbability: 1 },
      { generator: 'independent', count: 10, cost: 5 },
    ];
    const r = await s.handleCommand({
      type: 'loadWorkload',
      workload: { name: 'ff', graph: list },
    });
    expect(r).toMatchObject({ ok: true });
    const g = (await untilGraphEnds(s)).at(-1)!.graph!;
    expect(g.state).toBe('failed');
    expect(g.nodes).toEqual({
      total: 13,
      pending: 0,
      ready: 0,
      running: 0,
      succeeded: 0,
      failed: 1,
      skipped: 0,
      cancelled: 12,
    });
  }, 10_000);

  it('a regular workload started during a graph run cancels it; the executor runs on', async () => {
    const s = simSession(2);
    await s.handleCommand({ type: 'runPreset', preset: 'random-layered-dag' });
    s.advance(50);
    expect(s.frame().graph?.state).toBe('running');
    const r = await s.handleCommand({ type: 'runPreset', preset: 'interactive-vs-scan' });
    expect(r).toMatchObject({ ok: true });
    const frames = await untilGraphEnds(s);
    const g = frames.at(-1)!.graph!;
    expect(g.state).toBe('cancelled');
    expect(g.nodes.succeeded).toBeLessThan(g.nodes.total);
    expect(g.nodes.succeeded + g.nodes.cancelled).toBe(g.nodes.total);
    expect(s.executor.paused).toBe(false);
    s.advance(2000);
    expect(s.executor.counters.quanta).toBeGreaterThan(0);
  }, 10_000);

  it('samples the stealing spans of a large graph and says so in the frame', async () => {
    const s = simSession(2);
    const many = { generator: 'independent', count: 30_000, kernel: 'noop', executor: 'stealing' };
    expect(await s.handleCommand({ type: 'loadWorkload', workload: many })).toMatchObject({
      ok: true,
    });
    await s.graphs.run!.done;
    const f = s.frame();
    // At most SAMPLED_SPANS (256) spans a run: one node in ceil(30,000 / 256) = 118.
    expect(f.graph).toMatchObject({ state: 'succeeded', sampleEvery: 118 });
    expect(f.graph!.nodes.succeeded).toBe(30_000);
    const spans = graphSpans([f]);
    expect(spans.length).toBeGreaterThan(0);
    expect(spans.length + f.graph!.spansDropped).toBeLessThanOrEqual(SAMPLED_SPANS);
  }, 30_000);
});
