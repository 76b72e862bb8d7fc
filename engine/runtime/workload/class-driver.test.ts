import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { createRng } from '../../../shared/lib/rng.ts';
import { Executor } from '../executor/executor.ts';
import { SimBackend } from '../sim/sim-backend.ts';
import { ClassDriver, type ClassDriverOptions } from './class-driver.ts';

const MS = 1e6;

/** Runs `classes` on the simulator; returns each class's submit times (ms after origin). */
function drive(
  classes: unknown[],
  options: Partial<ClassDriverOptions> = {},
  seed = 1,
  runUntilMs = 1e6,
) {
  const w = parseWorkload({ durationMs: 1e6, classes });
  const sim = new SimBackend({ workers: 4, seed: 1 });
  const ex = new Executor(sim, { workers: 4, policy: 'fifo' });
  const origin = options.originNanos ?? 0;
  const times: Record<string, number[]> = {};
  const submit = ex.submitJob.bind(ex);
  ex.submitJob = (spec) => {
    (times[spec.class] ??= []).push((sim.now() - origin) / MS);
    return submit(spec);
  };
  const driver = new ClassDriver(ex, w.classes!, createRng(seed), {
    originNanos: origin,
    scale: 1,
    untilNanos: Infinity,
    ...options,
  });
  driver.start();
  sim.runUntil(origin + runUntilMs * MS);
  return { times, driver };
}

/** One tiny split per job. */
const job = { splits: { intermediate: 1 }, work: { totalMs: 1 } };

describe('ClassDriver', () => {
  it('a class whose job cannot be submitted stops, on the timeline; the others run on', () => {
    const w = parseWorkload({
      durationMs: 1e6,
      classes: [
        { name: 'bad', arrival: { kind: 'periodic', everyMs: 100, count: 5 }, ...job },
        { name: 'good', arrival: { kind: 'periodic', everyMs: 100, count: 5 }, ...job },
      ],
    });
    const sim = new SimBackend({ workers: 4, seed: 1 });
    const ex = new Executor(sim, { workers: 4, policy: 'fifo' });
    const submit = ex.submitJob.bind(ex);
    ex.submitJob = (spec) => {
      if (spec.class === 'bad') throw new Error('totalNanos must be a number');
      return submit(spec);
    };
    const driver = new ClassDriver(ex, w.classes!, createRng(1), {
      originNanos: 0,
      scale: 1,
      untilNanos: Infinity,
    });
    driver.start();
    expect(() => sim.runUntil(1e6 * MS)).not.toThrow();
    expect(Object.fromEntries(driver.submitted)).toEqual({ good: 5 });
    expect(ex.counters.succeeded).toBe(5);
    expect(ex.events.since(0)).toContainEqual(
      expect.objectContaining({
        kind: 'workload-error',
        detail: 'class bad stopped: totalNanos must be a number',
      }),
    );
  });

  it('submits once, periodic and Poisson arrivals at their times, with their counts', () => {
    const { times, driver } = drive([
      { name: 'once', arrival: { kind: 'once', atMs: 200, count: 3 }, ...job },
      { name: 'tick', arrival: { kind: 'periodic', everyMs: 100, startMs: 50, count: 4 }, ...job },
      { name: 'poisson', arrival: { kind: 'poisson', rate: 10, count: 400 }, ...job },
    ]);
    expect(times['once']).toEqual([200, 200, 200]);
    expect(times['tick']).toEqual([50, 150, 250, 350]);
    const p = times['poisson']!;
    expect(p).toHaveLength(400);
    expect([...p].sort((a, b) => a - b)).toEqual(p);
    // Mean gap 1/rate = 100 ms (400 gaps: within ±15%).
    const meanGap = (p.at(-1)! - p[0]!) / (p.length - 1);
    expect(meanGap).toBeGreaterThan(85);
    expect(meanGap).toBeLessThan(115);
    expect(Object.fromEntries(driver.submitted)).toEqual({ once: 3, tick: 4, poisson: 400 });
    expect(driver.finished).toBe(true);
  });

  it('draws the same Poisson times from the same seed and other times from another', () => {
    const cls = [{ name: 'p', arrival: { kind: 'poisson', rate: 5, count: 50 }, ...job }];
    const a = drive(cls, {}, 7).times['p'];
    expect(drive(cls, {}, 7).times['p']).toEqual(a);
    expect(drive(cls, {}, 8).times['p']).not.toEqual(a);
  });

  it('scales every arrival by timeScale, counts from the origin and stops at untilNanos', () => {
    const tick = { name: 't', arrival: { kind: 'periodic', everyMs: 100 }, ...job };
    const { times } = drive([tick], { originNanos: 5000 * MS, scale: 0.5, untilNanos: 300 * MS });
    // Every 50 ms of backend time from the origin, the last one before 300 ms.
    expect(times['t']).toEqual([0, 50, 100, 150, 200, 250]);
  });

  it('submits nothing more once stopped, and counts as finished', () => {
    const tick = { name: 't', arrival: { kind: 'periodic', everyMs: 100, count: 10 }, ...job };
    const w = parseWorkload({ classes: [tick] });
    const sim = new SimBackend({ workers: 1, seed: 1 });
    const ex = new Executor(sim, { workers: 1 });
    const driver = new ClassDriver(ex, w.classes!, createRng(1), {
      originNanos: 0,
      scale: 1,
      untilNanos: Infinity,
    });
    driver.start();
    sim.runUntil(250 * MS);
    expect(driver.submitted.get('t')).toBe(3);
    expect(driver.finished).toBe(false);
    driver.stop();
    expect(driver.finished).toBe(true);
    sim.runUntil(2000 * MS);
    expect(driver.submitted.get('t')).toBe(3);
  });

  it("shares one frozen copy of a class's input among its splits; a later change reaches none", () => {
    const klass = {
      name: 'q',
      arrival: { kind: 'periodic', everyMs: 100, count: 3 },
      splits: { leaf: 2 },
      work: { kernel: { module: '/abs/task.mjs' }, input: { rows: [[1, 2]] }, totalMs: 1 },
    };
    const w = parseWorkload({ classes: [klass] });
    const sim = new SimBackend({ workers: 1, seed: 1 });
    const ex = new Executor(sim, { workers: 1 });
    const inputs: unknown[] = [];
    const submit = ex.submitJob.bind(ex);
    ex.submitJob = (spec) => {
      for (const split of spec.tasks[0]!.splits) inputs.push(split.work.input);
      return submit(spec);
    };
    const driver = new ClassDriver(ex, w.classes!, createRng(1), {
      originNanos: 0,
      scale: 1,
      untilNanos: Infinity,
    });
    const docInput = w.classes![0]!.work.input as { rows: unknown[] };
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    docInput.rows.push(deep);
    driver.start();
    sim.runUntil(1000 * MS);
    expect(inputs).toHaveLength(6);
    expect(new Set(inputs).size).toBe(1);
    expect(inputs[0]).toEqual({ rows: [[1, 2]] });
    expect(Object.isFrozen((inputs[0] as { rows: unknown[] }).rows[0])).toBe(true);
  });
});
