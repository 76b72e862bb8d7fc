import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimBackend } from '../../runtime/sim/sim-backend.ts';
import type { CommandError, CompareResultWire } from '../../../shared/protocol.ts';
import { Session } from './session.ts';

async function compare(s: Session, msg: Record<string, unknown>): Promise<CompareResultWire> {
  const r = await s.handleCommand({ type: 'compare', ...msg });
  if (!r.ok) throw new Error(`compare failed: ${JSON.stringify(r.error)}`);
  return r as unknown as CompareResultWire;
}

async function fails(s: Session, msg: Record<string, unknown>): Promise<CommandError['error']> {
  const r = await s.handleCommand({ type: 'compare', ...msg });
  expect(r.ok).toBe(false);
  return (r as CommandError).error;
}

const twoPolicies = [
  { policy: 'mlfq', label: 'mlfq' },
  { policy: 'fifo', label: 'fifo' },
];

/** A column of this runs for seconds of wall time (60,000 jobs of four splits). */
const big = {
  name: 'big',
  seed: 1,
  durationMs: 60_000,
  classes: [
    {
      name: 'bulk',
      arrival: { kind: 'periodic', everyMs: 1, count: 60_000 },
      splits: { leaf: 4 },
      work: { totalMs: 1 },
    },
  ],
};

describe('compare command', () => {
  it('mlfq keeps interactive p95 latency below fifo on interactive-vs-scan', async () => {
    const s = new Session();
    const r = await compare(s, {
      id: 'c1',
      preset: 'interactive-vs-scan',
      configs: twoPolicies,
      durationMs: 20_000,
    });
    expect(r.workload).toBe('interactive-vs-scan');
    expect(r.durationMs).toBe(20_000);
    expect(r.reports.map((x) => [x.label, x.config.policy])).toEqual([
      ['mlfq', 'mlfq'],
      ['fifo', 'fifo'],
    ]);
    const [mlfq, fifo] = r.reports;
    const mi = mlfq!.classes['interactive']!;
    const fi = fifo!.classes['interactive']!;
    expect(mi.succeeded).toBeGreaterThan(0);
    expect(fi.succeeded).toBeGreaterThan(0);
    expect(mi.latencyMs.p95).toBeLessThan(fi.latencyMs.p95);
    for (const rep of r.reports) {
      expect(rep.makespanMs).toBeGreaterThan(0);
      expect(rep.makespanMs).toBeLessThanOrEqual(20_000);
      expect(rep.utilization).toBeGreaterThan(0);
      expect(rep.utilization).toBeLessThanOrEqual(1);
      expect(rep.jain).toBeGreaterThan(0);
      const shares = rep.levelShares.reduce((n, l) => n + l.share, 0);
      expect(shares).toBeCloseTo(1, 2);
    }
    // The live session is untouched: its clock did not move and it ran nothing.
    expect(s.executor.now()).toBe(0);
    expect(s.executor.counters.submitted).toBe(0);
    await s.close();
  }, 30_000);

  it('the same seed gives the same reports; another seed changes them', async () => {
    const s = new Session();
    const msg = { preset: 'interactive-vs-scan', configs: twoPolicies, durationMs: 5_000 };
    const a = await compare(s, { ...msg, seed: 3 });
    const b = await compare(s, { ...msg, seed: 3 });
    const c = await compare(s, { ...msg, seed: 4 });
    expect(b.reports).toEqual(a.reports);
    expect(c.seed).toBe(4);
    expect(c.reports).not.toEqual(a.reports);
    await s.close();
  }, 30_000);

  it('labels columns by what they set when no label is given', async () => {
    const s = new Session();
    const r = await compare(s, {
      preset: 'interactive-vs-scan',
      configs: [{ policy: 'mlfq' }, { policy: 'mlfq', workers: 2 }],
      durationMs: 2_000,
    });
    expect(r.reports.map((x) => x.label)).toEqual(['mlfq', 'mlfq · workers 2']);
    expect(r.reports[1]!.config.workers).toBe(2);
    await s.close();
  }, 30_000);

  it('a bad value names its column and field; nothing runs', async () => {
    const s = new Session();
    const base = { preset: 'interactive-vs-scan' };
    expect(
      await fails(s, { ...base, configs: [{ policy: 'mlfq' }, { levelTimeMultiplier: 1 }] }),
    ).toMatchObject({
      code: 'INVALID_CONFIG',
      field: 'configs[1].levelTimeMultiplier',
      message: 'configs[1].levelTimeMultiplier must be > 1',
    });
    expect(
      await fails(s, { ...base, configs: [{ policy: 'mlfq' }, { policy: 'mlfq', bogus: 1 }] }),
    ).toMatchObject({
      code: 'INVALID_CONFIG',
      field: 'configs[1].bogus', // the unknown key itself, as a known one is named
      message: 'configs[1] has unknown field bogus',
    });
    expect(await fails(s, { ...base, configs: [{ policy: 'nope' }, {}] })).toMatchObject({
      code: 'INVALID_CONFIG',
      field: 'configs[0].policy',
    });
    expect(await fails(s, { ...base, configs: [{ policy: 'mlfq' }] })).toMatchObject({
      code: 'BAD_MESSAGE',
      field: 'configs',
    });
    expect(await fails(s, { ...base, configs: [{}, {}, {}, {}, {}] })).toMatchObject({
      field: 'configs',
    });
    expect(
      await fails(s, { ...base, configs: twoPolicies, durationMs: 10 * 60_000 }),
    ).toMatchObject({ code: 'BAD_MESSAGE', field: 'durationMs' });
    expect(await fails(s, { preset: 'no-such', configs: twoPolicies })).toMatchObject({
      code: 'UNKNOWN_PRESET',
      field: 'preset',
    });
    expect(await fails(s, { configs: twoPolicies })).toMatchObject({ field: 'preset' });
    expect(
      await fails(s, { workload: { name: 'w', classes: 'x' }, configs: twoPolicies }),
    ).toMatchObject({ code: 'INVALID_WORKLOAD', field: expect.stringMatching(/^workload\./) });
    await s.close();
  });

  // r → a, b (1 ms) and r → c (10 ms) → d (10 ms) on 2 workers: taking c before a and b saves 1 ms.
  const fork = {
    name: 'fork',
    config: { workers: 2 },
    graph: {
      nodes: [
        { id: 'r', cost: 1 },
        { id: 'a', cost: 1 },
        { id: 'b', cost: 1 },
        { id: 'c', cost: 10 },
        { id: 'd', cost: 10 },
      ],
      edges: [
        { from: 'r', to: 'a' },
        { from: 'r', to: 'b' },
        { from: 'r', to: 'c' },
        { from: 'c', to: 'd' },
      ],
    },
  };

  it('on a graph workload each column runs under its own graph policy', async () => {
    const s = new Session();
    const makespans = async (policies: string[]) => {
      const r = await compare(s, {
        workload: fork,
        configs: policies.map((policy) => ({ policy })),
      });
      return r.reports.map((x) => [x.label, x.makespanMs]);
    };
    // The document says nothing (fifo): without the column's policy both would take 22 ms.
    expect(await makespans(['fifo', 'critical-path'])).toEqual([
      ['fifo', 22],
      ['critical-path', 21],
    ]);
    expect(await makespans(['lifo', 'sjf', 'ljf', 'most-successors'])).toEqual([
      ['lifo', 21],
      ['sjf', 22],
      ['ljf', 21],
      ['most-successors', 21],
    ]);
    await s.close();
  });

  it('refuses a split-queue policy on a graph workload and a graph policy elsewhere', async () => {
    const s = new Session();
    expect(
      await fails(s, { workload: fork, configs: [{ policy: 'fifo' }, { policy: 'mlfq' }] }),
    ).toEqual({
      code: 'INVALID_CONFIG',
      message:
        'configs[1].policy must be a graph policy on a graph workload: one of fifo, lifo, most-successors, sjf, ljf, critical-path',
      field: 'configs[1].policy',
    });
    expect(
      await fails(s, {
        preset: 'interactive-vs-scan',
        configs: [{ policy: 'fifo' }, { policy: 'critical-path' }],
      }),
    ).toEqual({
      code: 'INVALID_CONFIG',
      message: 'configs[1].policy must be one of mlfq, priority, fifo, fair',
      field: 'configs[1].policy',
    });
    await s.close();
  });

  it('refuses a second compare while one runs', async () => {
    const s = new Session();
    const msg = { type: 'compare', preset: 'interactive-vs-scan', configs: twoPolicies };
    const first = s.handleCommand({ ...msg, durationMs: 2_000 });
    const second = await s.handleCommand({ ...msg, durationMs: 1_000 });
    expect(second).toMatchObject({ ok: false, error: { code: 'QUEUE_FULL' } });
    expect(await first).toMatchObject({ ok: true });
    await s.close();
  }, 30_000);

  it('gives the host’s event loop turns while a column runs, not only between columns', async () => {
    // Before: a column of a large workload held the loop for all of its wall time (50 s at the
    // split limit), so the session sent no frame and answered no one meanwhile.
    const s = new Session();
    let gap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      gap = Math.max(gap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    try {
      await compare(s, { workload: big, configs: twoPolicies, durationMs: 60_000 });
    } finally {
      clearInterval(ticker);
      await s.close();
    }
    const took = performance.now() - started;
    // The longest wait for a turn is a small part of a column (a generous bound for a busy
    // machine), where it was all of it.
    expect(gap).toBeLessThan(Math.max(1000, took / 8));
  }, 120_000);

  it('gives the event loop turns while a graph column runs too', async () => {
    // A graph run on the simulator was driven to idle in one call: a 1024 × 1024 wavefront held
    // the loop 20 s. Counted here in turns (setImmediate) during the compare of 90,000 nodes.
    const s = new Session();
    const workload = {
      name: 'big',
      graph: { generator: 'wavefront', rows: 300, cols: 300, cost: 1 },
    };
    let turns = 0;
    let on = true;
    const turn = () => {
      if (!on) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    try {
      const r = await compare(s, { workload, configs: [{ policy: 'fifo' }, { policy: 'lifo' }] });
      expect(r.reports.map((x) => x.label)).toEqual(['fifo', 'lifo']);
    } finally {
      on = false;
      await s.close();
    }
    // Between the columns alone it was 2 or 3.
    expect(turns).toBeGreaterThan(8);
  }, 120_000);

  describe('cancelCompare', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /**
     * Starts a compare, cancels it once the simulator has stepped `step` `atLeast` times, and
     * says how many steps ran after the cancel was answered.
     */
    async function cancelMidway(
      s: Session,
      msg: Record<string, unknown>,
      step: 'runUntil' | 'runUntilIdle',
    ): Promise<{ answer: unknown; stepsAfter: number }> {
      const steps = vi.spyOn(SimBackend.prototype, step);
      const running = s.handleCommand({ type: 'compare', ...msg });
      await vi.waitFor(() => expect(steps.mock.calls.length).toBeGreaterThan(3), {
        timeout: 60_000,
      });
      expect(await s.handleCommand({ type: 'cancelCompare', id: 'x' })).toEqual({
        ok: true,
        cancelled: true,
        id: 'x',
      });
      const at = steps.mock.calls.length;
      const answer = await running;
      return { answer, stepsAfter: steps.mock.calls.length - at };
    }

    it('stops a running compare at once, answers it CANCELLED, and the next compare runs', async () => {
      // Before: there was no way to stop a compare; the user waited for every column.
      const s = new Session();
      const { answer, stepsAfter } = await cancelMidway(
        s,
        { workload: big, configs: twoPolicies, durationMs: 60_000 },
        'runUntil',
      );
      expect(answer).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      // No simulator step of it ran after the cancel's answer.
      expect(stepsAfter).toBe(0);
      // Nothing runs now; the session takes the next compare and runs it to its end.
      expect(await s.handleCommand({ type: 'cancelCompare' })).toEqual({
        ok: true,
        cancelled: false,
      });
      const r = await compare(s, {
        preset: 'interactive-vs-scan',
        configs: twoPolicies,
        durationMs: 1_000,
      });
      expect(r.reports).toHaveLength(2);
      // The live session was never touched.
      expect(s.executor.counters.submitted).toBe(0);
      await s.close();
    }, 120_000);

    it('stops a graph compare at once too', async () => {
      const s = new Session();
      const workload = {
        name: 'big-graph',
        graph: { generator: 'wavefront', rows: 300, cols: 300, cost: 1 },
      };
      const { answer, stepsAfter } = await cancelMidway(
        s,
        { workload, configs: [{ policy: 'fifo' }, { policy: 'lifo' }] },
        'runUntilIdle',
      );
      expect(answer).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      expect(stepsAfter).toBe(0);
      await s.close();
    }, 120_000);

    it('a compare sent right after a cancel is taken, not refused as a second one', async () => {
      const s = new Session();
      const steps = vi.spyOn(SimBackend.prototype, 'runUntil');
      const first = s.handleCommand({ type: 'compare', workload: big, configs: twoPolicies });
      await vi.waitFor(() => expect(steps).toHaveBeenCalled(), { timeout: 60_000 });
      await s.handleCommand({ type: 'cancelCompare' });
      const second = s.handleCommand({
        type: 'compare',
        preset: 'interactive-vs-scan',
        configs: twoPolicies,
        durationMs: 1_000,
      });
      expect(await first).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
      expect(await second).toMatchObject({ ok: true });
      await s.close();
    }, 120_000);
  });
});
