// A frame's passes over every live run, spread over steps (a served console with 100,000 runs
// queued held the service's loop 60–400 ms a pass): spread, they give what one piece gives when
// nothing changes between steps, pause after each budget's worth, judge each run as it is when
// visited, and pass over what ended since.
import { describe, expect, it } from 'vitest';
import { runSteps, WorkBudget, type Steps } from '../../core/graph/steps.ts';
import { MS, intermediates, simRig, spin } from './testing.ts';
import type { FairnessMode } from '../../../shared/config.ts';

const JOBS = 600;

/** `fair`, many jobs queued behind two workers, some served. */
function loaded(fairness: FairnessMode = 'query', quantumMs = 10, tenants = true) {
  const rig = simRig({ workers: 2, quantumMs, policy: 'fair', fairness, runawayAfterMs: 5 });
  for (let i = 0; i < JOBS; i++) {
    rig.ex.submitJob({
      class: i % 3 === 0 ? 'scan' : 'report',
      ...(tenants ? { tenant: `t${i % 7}` } : {}),
      tasks: [{ splits: intermediates(i % 2 === 0 ? 1 : 2, spin(50)) }],
    });
  }
  rig.sim.runUntil(205 * MS);
  return rig;
}

/** Drives `steps` to the end, counting the pauses and calling `between` at each. */
function stepped<T>(steps: Steps<T>, between: () => void = () => {}): { value: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const r = steps.next();
    if (r.done === true) return { value: r.value, pauses };
    pauses++;
    between();
  }
}

describe('the passes over every live run', () => {
  it('give in steps what they give in one piece, pausing after each budget of units', () => {
    const { ex } = loaded();
    const whole = ex.populationPass();
    const oneJain = runSteps(whole.jain());
    const oneGroups = runSteps(whole.fairGroups());
    const oneWarnings = runSteps(whole.warnings(1)).warnings;
    expect(oneJain.jobs).toBe(JOBS);
    expect(oneGroups.count).toBe(7);
    // Waits past 1 ms: every queued job's split starves at that bound.
    expect(oneWarnings.filter((w) => w.rule === 'starving').length).toBeGreaterThan(JOBS / 2);

    const pass = ex.populationPass(new WorkBudget(50));
    const jain = stepped(pass.jain());
    const groups = stepped(pass.fairGroups());
    const warnings = stepped(pass.warnings(1));
    expect(jain.value).toEqual(oneJain);
    expect(groups.value).toEqual(oneGroups);
    expect(warnings.value.warnings).toEqual(oneWarnings);
    // One unit a job or split: the budget runs out every 50 (jobs for Jain and the groups;
    // splits twice for the warnings, the class norms, then the flags).
    expect(jain.pauses).toBe(Math.floor(JOBS / 50));
    expect(groups.pauses).toBeGreaterThanOrEqual(Math.floor(JOBS / 50) - 1);
    expect(warnings.pauses).toBeGreaterThanOrEqual(Math.floor((2 * JOBS) / 50) - 1);
  });

  it('keep a frame’s share of the warnings, worst first, and count the rest', () => {
    const { ex } = loaded();
    const all = runSteps(ex.populationPass().warnings(1)).warnings;
    const some = stepped(ex.populationPass(new WorkBudget(50)).warnings(1, 10)).value;
    expect(some.warnings).toEqual(all.slice(0, 10));
    expect(some.more).toBe(all.length - 10);
  });

  it('pass over the jobs that ended between steps, even those flagged before they ended', () => {
    const { ex } = loaded();
    const pass = ex.populationPass(new WorkBudget(50));
    const jain = pass.jain();
    const warnings = pass.warnings(1);
    // Most of the warnings' walk done (their splits flagged), a few steps of Jain's.
    for (let i = 0; i < 20; i++) warnings.next();
    jain.next();
    const queued = ex.jobs(JOBS + 10).filter((r) => r.state === 'queued');
    // The oldest queued jobs (flagged already) and the newest (not yet visited by Jain).
    const ended = [...queued.slice(0, 50), ...queued.slice(-50)].map((r) => r.id);
    for (const id of ended) ex.cancelJob(id);
    const j = stepped(jain).value;
    const w = stepped(warnings).value.warnings;
    expect(j.jobs).toBeLessThanOrEqual(JOBS - 50);
    const cancelled = new Set(ended);
    expect(w.filter((x) => cancelled.has(x.jobId))).toEqual([]);
    expect(w.length).toBeGreaterThan(0);
  });

  it('count a job’s service as it is when visited, time moving between steps', () => {
    // One worker, quanta of 100 ms: A runs 0–100, B 100–200, C from 200. The pass begins at
    // 150 (B running) and visits A, then time moves to 250 (B's quantum over, C's running),
    // then B and C. Read once at the start, B's quantum counted twice and C's not at all.
    const { sim, ex } = simRig({ workers: 1, quantumMs: 100, policy: 'fair', fairness: 'query' });
    for (const cls of ['a', 'b', 'c'])
      ex.submitJob({ class: cls, tasks: [{ splits: intermediates(1, spin(1000)) }] });
    sim.runUntil(150 * MS);
    let pauses = 0;
    const spread = stepped(ex.populationPass(new WorkBudget(1)).fairGroups(), () => {
      if (++pauses === 2) sim.runUntil(250 * MS);
    }).value;
    const whole = runSteps(ex.populationPass().fairGroups());
    const service = (g: typeof whole) => g.groups.map((r) => [r.cls, r.serviceNanos / MS]).sort();
    expect(service(whole)).toEqual([
      ['a', 100],
      ['b', 100],
      ['c', 50],
    ]);
    expect(service(spread)).toEqual(service(whole));
  });

  it('spend a unit a split under split fairness, however many splits a job has', () => {
    const { ex } = simRig({ workers: 2, quantumMs: 10, policy: 'fair', fairness: 'split' });
    ex.submitJob({ class: 'wide', tasks: [{ splits: intermediates(5_000, spin(50)) }] });
    const groups = stepped(ex.populationPass(new WorkBudget(50)).fairGroups());
    expect(groups.value.count).toBe(5_000);
    // Each split once, each group once when summed.
    expect(groups.pauses).toBeGreaterThanOrEqual(2 * (5_000 / 50) - 1);
  });
});
