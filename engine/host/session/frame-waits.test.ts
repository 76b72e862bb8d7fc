import { describe, expect, it } from 'vitest';
import { intermediates, leaves, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import type { JobSpec } from '../../runtime/executor/index.ts';
import { SimBackend } from '../../runtime/sim/index.ts';
import { Executor } from '../../runtime/executor/index.ts';
import { RunCollector } from '../report/collector.ts';
import { Session } from './session.ts';

describe('Session frames: split waits mean what a report means', () => {
  it('a class that has only waited so far shows its wait, not nothing', () => {
    const s = new Session({
      config: { workers: 1, quantumMs: 10, policy: 'priority', aging: false },
    });
    // Non-preemptive priority: the urgent job holds the only worker for a second.
    s.executor.submitJob(oneTaskJob('urgent', intermediates(1, spin(1000)), { basePriority: 0 }));
    s.executor.submitJob(oneTaskJob('late', intermediates(1, spin(10)), { basePriority: 90 }));
    const f = s.advance(500).at(-1)!;
    const late = f.wait.byClass['late']!;
    expect(late.count).toBe(1);
    expect(late.p50).toBeGreaterThanOrEqual(490);
    expect(late.max).toBeLessThanOrEqual(510);
    expect(f.wait.byBand['p80-100']!.p50).toBe(late.p50);
    expect(f.oldestWaitMs).toBe(500);
    // Read again later: the open wait has grown, and is not counted twice.
    const g = s.advance(300).at(-1)!;
    expect(g.wait.byClass['late']!.count).toBe(1);
    expect(g.wait.byClass['late']!.p50).toBeGreaterThanOrEqual(790);
    // Once it has run, it is one ended wait of ~1 s.
    const done = s.runToIdle().at(-1)!;
    expect(done.wait.byClass['late']).toMatchObject({ count: 1 });
    expect(done.wait.byClass['late']!.p50).toBeGreaterThanOrEqual(990);
    expect(done.oldestWaitMs).toBe(0);
  });

  it('one wait per quantum: the requeue waits count, not one summed wait per split', () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10, policy: 'fifo' } });
    for (let j = 0; j < 4; j++) s.executor.submitJob(oneTaskJob('a', intermediates(2, spin(40))));
    const last = s.runToIdle().at(-1)!;
    // 8 splits × 4 quanta of 10 ms: 32 waits, as many as quanta.
    expect(last.counters.quanta).toBe(32);
    expect(last.wait.byClass['a']!.count).toBe(32);
    // Round-robin among 8 splits on 2 workers: every requeue waits 30 ms for three others.
    expect(last.wait.byClass['a']!.p95).toBeLessThanOrEqual(31);
  });

  it('every figure equals a headless report of the same run: one histogram for app and CLI', () => {
    const config = { workers: 2, quantumMs: 5, policy: 'mlfq' as const };
    const jobs: JobSpec[] = [];
    for (let j = 0; j < 6; j++)
      jobs.push(oneTaskJob(j % 2 ? 'x' : 'y', intermediates(3, spin(20 + j * 7))));
    const s = new Session({ config, seed: 3 });
    const sim = new SimBackend({ workers: 2, seed: 3 });
    const report = new Executor(sim, config);
    const collector = new RunCollector(report, [], 0, null);
    for (const spec of jobs) {
      s.executor.submitJob(spec);
      report.submitJob(spec);
    }
    const frame = s.advance(200).at(-1)!;
    sim.runUntil(200 * 1e6);
    collector.close();
    for (const [cls, { wait: summary }] of collector.classes) {
      expect(frame.wait.byClass[cls]).toEqual({ count: summary.count, ...summary.toMs() });
    }
    const latency = [...collector.classes].filter(([, c]) => c.latency.count > 0);
    expect(latency.length).toBeGreaterThan(0);
    for (const [cls, { latency: summary }] of latency) {
      expect(frame.latency.byClass[cls]).toEqual({ count: summary.count, ...summary.toMs() });
    }
  });

  it("carry Trino's queued time: leaf splits held by admission, while they wait and once admitted", () => {
    // One driver per task: the scan's leaves are admitted at 0, 10 and 20 ms, each as the one
    // before it ends; only then does their wait for a worker start.
    const s = new Session({
      config: { workers: 1, quantumMs: 100, policy: 'fifo', guaranteedPerTask: 1, minDrivers: 1 },
    });
    s.executor.submitJob(oneTaskJob('scan', leaves(3, spin(10))));
    const early = s.advance(5).at(-1)!;
    // At 5 ms: admitted at 0 ms (queued 0), two held 5 ms so far.
    expect(early.queued?.byClass['scan']).toMatchObject({ count: 3, max: 5 });
    expect(early.queued!.byClass['scan']!.mean).toBeGreaterThan(0);
    const done = s.runToIdle().at(-1)!;
    expect(done.queued?.byClass['scan']).toMatchObject({ count: 3, max: 20, mean: 10 });
    // Admitted straight onto the idle worker: no wait in the ready queue on top.
    expect(done.wait.byClass['scan']).toMatchObject({ count: 3, max: 0 });
  });
});
