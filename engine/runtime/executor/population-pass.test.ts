// A frame's passes over every live run, spread over steps (a served console with 100,000 runs
// queued held the service's loop 60–400 ms a pass): spread, they give what one piece gives when
// nothing changes between steps, pause after each budget's worth, and pass over what ended since.
import { describe, expect, it } from 'vitest';
import { runSteps, WorkBudget, type Steps } from '../../core/graph/steps.ts';
import { MS, intermediates, simRig, spin } from './testing.ts';
import type { Executor } from './executor.ts';

const JOBS = 600;

/** `fair` by tenant, many jobs queued behind two workers, some served, one overrunning. */
function loaded(): { ex: Executor; runUntil(nanos: number): void } {
  const { sim, ex } = simRig({
    workers: 2,
    quantumMs: 10,
    policy: 'fair',
    fairness: 'query',
    runawayAfterMs: 5,
  });
  for (let i = 0; i < JOBS; i++) {
    ex.submitJob({
      class: i % 3 === 0 ? 'scan' : 'report',
      tenant: `t${i % 7}`,
      tasks: [{ splits: intermediates(i % 2 === 0 ? 1 : 2, spin(50)) }],
    });
  }
  sim.runUntil(205 * MS);
  return { ex, runUntil: (n) => sim.runUntil(n) };
}

/** Drives `steps` to the end, counting the pauses. */
function stepped<T>(steps: Steps<T>): { value: T; pauses: number } {
  let pauses = 0;
  for (;;) {
    const r = steps.next();
    if (r.done === true) return { value: r.value, pauses };
    pauses++;
  }
}

describe('the passes over every live run', () => {
  it('give in steps what they give in one piece, pausing after each budget of units', () => {
    const { ex } = loaded();
    const whole = ex.populationPass();
    const oneJain = runSteps(whole.jain());
    const oneGroups = runSteps(whole.fairGroups());
    const oneWarnings = runSteps(whole.warnings(1));
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
    expect(warnings.value).toEqual(oneWarnings);
    // One unit a job or split: the budget runs out every 50 (jobs for Jain and the groups;
    // splits twice for the warnings, the class norms, then the flags).
    expect(jain.pauses).toBe(Math.floor(JOBS / 50));
    expect(groups.pauses).toBeGreaterThanOrEqual(Math.floor(JOBS / 50) - 1);
    expect(warnings.pauses).toBeGreaterThanOrEqual(Math.floor((2 * JOBS) / 50) - 1);
  });

  it('pass over the jobs and splits that ended between steps', () => {
    const { ex } = loaded();
    const pass = ex.populationPass(new WorkBudget(50));
    const jain = pass.jain();
    const warnings = pass.warnings(1);
    jain.next(); // the copies are taken at the first step
    warnings.next();
    // The newest queued jobs: not visited yet by either pass.
    const ended = ex
      .jobs(JOBS + 10)
      .filter((r) => r.state === 'queued')
      .slice(-100)
      .map((r) => r.id);
    expect(ended).toHaveLength(100);
    for (const id of ended) ex.cancelJob(id);
    const j = stepped(jain).value;
    const w = stepped(warnings).value;
    expect(j.jobs).toBe(JOBS - 100);
    const cancelled = new Set(ended);
    expect(w.some((x) => cancelled.has(x.jobId))).toBe(false);
    expect(w.length).toBeGreaterThan(0);
  });
});
