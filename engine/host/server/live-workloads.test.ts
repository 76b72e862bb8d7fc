// Presets running live in a session, on the deterministic simulator.
import { afterEach, describe, expect, it } from 'vitest';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { Session } from '../session/index.ts';
import { liveWorkloads } from './live-workloads.ts';

let session: Session | null = null;
afterEach(async () => {
  await session?.close();
  session = null;
});

function simSession(loop: boolean) {
  const workloads = liveWorkloads({ loop });
  session = new Session({ workloads });
  return { session, workloads };
}

describe('live workloads', () => {
  it("offers the host's presets in the snapshot, graphs marked, and every one of them runs", async () => {
    const { session } = simSession(false);
    const offered = session.snapshot().presets ?? [];
    expect(offered.map((p) => p.name)).toContain('interactive-vs-scan');
    expect(offered.filter((p) => p.graph).map((p) => p.name)).toEqual(
      expect.arrayContaining(['diamond', 'random-layered-dag']),
    );
    expect(offered.find((p) => p.name === 'batch-service')?.graph).toBe(false);
    for (const { name } of offered) {
      const result = await session.handleCommand({ type: 'runPreset', preset: name });
      expect(result, name).toMatchObject({ ok: true });
    }
  });

  it('a workload’s tenant weights are set when it starts; one without them leaves them be', async () => {
    const { session } = simSession(false);
    await session.handleCommand({ type: 'runPreset', preset: 'noisy-tenants' });
    expect(session.executor.tenantWeights).toEqual({ initech: 2 });
    const groups = session.advance(2000).at(-1)!.fairGroups!.groups;
    expect(groups.find((g) => g.label === 'initech')?.weight).toBe(2);
    await session.handleCommand({ type: 'runPreset', preset: 'batch-service' });
    expect(session.executor.tenantWeights).toEqual({ initech: 2 });
  });

  it('refuses options on a preset that is not a graph, as a graph preset refuses unknown ones', async () => {
    // Before: ignored ({ ok: true }), where `diamond` refused the same options.
    const { session } = simSession(false);
    const result = await session.handleCommand({
      type: 'runPreset',
      preset: 'interactive-vs-scan',
      options: { bogus: 1 },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENT', field: 'options.bogus' },
    });
  });

  it('a session without a workloads handler offers no presets (runPreset would refuse them)', async () => {
    session = new Session();
    expect(session.snapshot().presets).toEqual([]);
  });

  it('runs a preset: applies its knobs, then its jobs arrive on the session clock', async () => {
    const { session, workloads } = simSession(false);
    const result = await session.handleCommand({
      type: 'runPreset',
      preset: 'interactive-vs-scan',
    });
    expect(result).toMatchObject({ ok: true });
    expect(workloads.current).toBe('interactive-vs-scan');
    const preset = loadPreset('interactive-vs-scan').config as { quantumMs: number };
    expect(session.executor.config.quantumMs).toBe(preset.quantumMs);
    session.advance(3000);
    const c = session.executor.counters;
    expect(c.submitted).toBeGreaterThan(10);
    expect(c.quanta).toBeGreaterThan(0);
  });

  it('a graph preset applies its settings too, once its graph is ready (diamond: 2 workers)', async () => {
    // Before: a graph workload's `config` was dropped silently: diamond ran on whatever workers
    // the session had (its FIFO-against-critical-path contrast needs two).
    const { session } = simSession(false);
    session.executor.configure({ workers: 8 });
    const result = await session.handleCommand({ type: 'runPreset', preset: 'diamond' });
    expect(result).toMatchObject({ ok: true });
    expect(session.executor.config.workers).toBe(2);
    // A bad one changes nothing: its settings are checked before anything starts.
    const bad = await session.handleCommand({
      type: 'loadWorkload',
      workload: { name: 'g', config: { workers: 0 }, graph: { generator: 'chain', length: 3 } },
    });
    expect(bad).toMatchObject({ ok: false, error: { field: 'config.workers' } });
    expect(session.executor.config.workers).toBe(2);
  });

  it('with loop, starts over once a round has drained, so the app never goes idle', async () => {
    // One round = three jobs of two 100 ms splits, arriving at 0, 200 and 400 ms.
    const workload = {
      name: 'tiny',
      seed: 7,
      classes: [
        {
          name: 'batch',
          arrival: { kind: 'periodic', everyMs: 200, count: 3 },
          splits: { intermediate: 2 },
          work: { kernel: 'spin', totalMs: 100 },
        },
      ],
    };
    const submittedAfter10s = async (loop: boolean) => {
      const { session } = simSession(loop);
      const result = await session.handleCommand({ type: 'loadWorkload', workload });
      expect(result).toMatchObject({ ok: true });
      session.advance(10_000);
      const c = session.executor.counters;
      await session.close();
      return c;
    };
    const once = await submittedAfter10s(false);
    expect(once).toMatchObject({ submitted: 3, succeeded: 3 });
    const looped = await submittedAfter10s(true);
    // A round lasts ≈ 0.5 s, then the loop waits until it has drained (checked every 0.5 s).
    expect(looped.submitted).toBeGreaterThanOrEqual(3 * 8);
    expect(looped.submitted % 3 === 0 || looped.live > 0).toBe(true);
  });

  it('refuses an unknown preset, a cyclic graph and a bad document, changing nothing', async () => {
    const { session } = simSession(false);
    const before = session.executor.config;
    expect(await session.handleCommand({ type: 'runPreset', preset: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_PRESET', field: 'preset' },
    });
    const cyclic = {
      nodes: [{ id: 'a' }, { id: 'b' }],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
      ],
    };
    expect(
      await session.handleCommand({ type: 'loadWorkload', workload: { name: 'g', graph: cyclic } }),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_GRAPH' } });
    expect(session.graphs.run).toBeNull();
    const bad = await session.handleCommand({
      type: 'loadWorkload',
      workload: { name: 'x', seed: 1, config: { levelTimeMultiplier: 0.5 }, classes: [] },
    });
    expect(bad).toMatchObject({ ok: false });
    // Once accepted, then overflowing to Infinity ns in a timer mid-run: the server died.
    const huge = await session.handleCommand({
      type: 'loadWorkload',
      workload: {
        classes: [
          { name: 'a', arrival: { kind: 'once' }, splits: { leaf: 1 }, work: { totalMs: 1e303 } },
        ],
      },
    });
    expect(huge).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_WORKLOAD',
        message: expect.stringContaining('classes[0].work.totalMs must be <= 86400000'),
      },
    });
    expect(session.executor.config).toEqual(before);
    expect(session.executor.counters.submitted).toBe(0);
  });

  it('refuses a document whose settings clash with the engine’s, leaving the running workload on', async () => {
    const { session, workloads } = simSession(false);
    await session.handleCommand({ type: 'runPreset', preset: 'batch-service' });
    session.advance(1000);
    const before = session.executor.config;
    const { maxDriversPerTask } = before;
    // Valid alone, over the engine's driver limit once merged. Before: the running workload's
    // arrivals were stopped first, then the document was refused.
    const clash = await session.handleCommand({
      type: 'loadWorkload',
      workload: {
        name: 'clash',
        config: { guaranteedPerTask: maxDriversPerTask + 1 },
        classes: [
          { name: 'c', arrival: { kind: 'once' }, splits: { leaf: 1 }, work: { totalMs: 10 } },
        ],
      },
    });
    expect(clash).toMatchObject({
      ok: false,
      error: { code: 'INVALID_CONFIG', field: 'config.guaranteedPerTask' },
    });
    expect(workloads.current).toBe('batch-service');
    expect(session.executor.config).toEqual(before);
    const submitted = session.executor.counters.submitted;
    session.advance(2000);
    expect(session.executor.counters.submitted).toBeGreaterThan(submitted); // arrivals go on
  });

  it('a workload too heavy for the pace falls behind it; frames and commands keep flowing', async () => {
    // One split of a second of work in calls of 1 ns: 10^9 dispatches in the first 100 ms of
    // virtual time. Before, one tick of the live loop ran them all: no frame and no answer for
    // minutes.
    const { session } = simSession(false);
    session.start();
    const loaded = await session.handleCommand({
      type: 'loadWorkload',
      workload: {
        classes: [
          {
            name: 'tiny',
            arrival: { kind: 'once' },
            splits: { leaf: 1 },
            work: { totalMs: 1000, perCallMs: 0.000001 },
          },
        ],
      },
    });
    expect(loaded).toMatchObject({ ok: true });
    let frames = 0;
    const off = session.onFrame(() => frames++);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    off();
    expect(frames).toBeGreaterThanOrEqual(3);
    const found = await session.handleCommand({ type: 'findJobs', query: 'tiny' });
    expect(found).toMatchObject({ ok: true, matched: 1 });
    expect(await session.handleCommand({ type: 'cancelAll' })).toMatchObject({ ok: true });
  });
});
