// One job contract (shared/job.ts): a job spec is refused with the same code, limit and field
// whether it comes over the wire (`submitJob`) or straight to the executor, and a workload's job
// class has the same limits.
import { describe, expect, it } from 'vitest';
import { MAX_CLASS_NAME, MAX_RETRIES, type JobSpec } from '../../../shared/job.ts';
import type { SchedLabError } from '../../../shared/errors.ts';
import type { CommandError } from '../../../shared/protocol.ts';
import { parseWorkload } from '../../../shared/workload.ts';
import { schedLabErrorOf } from '../../../shared/testing.ts';
import { leaves, oneTaskJob, simRig, spin } from '../../runtime/executor/testing.ts';
import { Session } from './session.ts';

async function wireError(job: unknown): Promise<CommandError['error'] | null> {
  const s = new Session({ config: { workers: 1, maxDriversPerTask: 8, guaranteedPerTask: 2 } });
  const r = await s.handleCommand({ type: 'submitJob', job });
  await s.close();
  return r.ok ? null : (r as CommandError).error;
}

function executorError(job: JobSpec): { code: string; field?: string } | null {
  const { ex } = simRig({ workers: 1, maxDriversPerTask: 8, guaranteedPerTask: 2 });
  try {
    ex.submitJob(job);
    return null;
  } catch (e) {
    const { code, field } = e as SchedLabError;
    return { code, ...(field === undefined ? {} : { field }) };
  }
}

const one = (extra: Partial<JobSpec>): JobSpec => oneTaskJob('a', leaves(1, spin(1)), extra);

describe('a job spec', () => {
  const cases: [string, JobSpec, string][] = [
    ['a class over the limit', one({ class: 'c'.repeat(MAX_CLASS_NAME + 1) }), 'class'],
    ['retries over the limit', one({ retries: MAX_RETRIES + 1 }), 'retries'],
    ['a priority out of range', one({ basePriority: 101 }), 'basePriority'],
    ['an empty tenant', one({ tenant: '' }), 'tenant'],
    [
      'a negative split time',
      oneTaskJob('a', leaves(1, { kernel: 'spin', totalNanos: -1 })),
      'tasks[0].splits[0].work.totalNanos',
    ],
    // A day at most (a workload's `totalMs` limit): 1e308 ns was accepted.
    [
      'a split time over a day',
      oneTaskJob('a', leaves(1, { kernel: 'spin', totalNanos: 1e308 })),
      'tasks[0].splits[0].work.totalNanos',
    ],
    [
      'a call time over a day',
      oneTaskJob('a', leaves(1, { kernel: 'sleep', totalNanos: 1, perCallNanos: 8.7e13 })),
      'tasks[0].splits[0].work.perCallNanos',
    ],
    [
      "a task's driver limit over the engine's",
      { class: 'a', tasks: [{ splits: leaves(1, spin(1)), maxDriversPerTask: 9 }] },
      'tasks[0].maxDriversPerTask',
    ],
  ];

  it.each(cases)(
    'with %s is INVALID_ARGUMENT naming the field, on the wire too',
    async (_, job, field) => {
      expect(executorError(job)).toEqual({ code: 'INVALID_ARGUMENT', field });
      expect(await wireError(job)).toMatchObject({
        code: 'INVALID_ARGUMENT',
        field: `job.${field}`,
      });
    },
  );

  it('at the limits is taken both ways', async () => {
    const job = one({ class: 'c'.repeat(MAX_CLASS_NAME), retries: MAX_RETRIES, tenant: 't' });
    expect(executorError(job)).toBeNull();
    expect(await wireError(job)).toBeNull();
  });

  it("in a workload document has the same limits as the executor's", () => {
    const doc = (klass: Record<string, unknown>) => ({
      durationMs: 1000,
      classes: [
        {
          name: 'a',
          arrival: { kind: 'once' },
          splits: { leaf: 1 },
          work: { totalMs: 1 },
          ...klass,
        },
      ],
    });
    expect(() => parseWorkload(doc({ retries: MAX_RETRIES }))).not.toThrow();
    expect(schedLabErrorOf(() => parseWorkload(doc({ retries: MAX_RETRIES + 1 })))).toMatchObject({
      code: 'INVALID_WORKLOAD',
      field: 'classes[0].retries',
    });
    expect(
      schedLabErrorOf(() => parseWorkload(doc({ name: 'c'.repeat(MAX_CLASS_NAME + 1) }))),
    ).toMatchObject({ code: 'INVALID_WORKLOAD', field: 'classes[0].name' });
  });
});
