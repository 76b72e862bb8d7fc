import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyName } from '../../../shared/config.ts';
import type { JobSpec, SplitSpec } from './job-spec.ts';
import { MS, simRig, spanProblems } from './testing.ts';

const split: fc.Arbitrary<SplitSpec> = fc.record({
  kind: fc.constantFrom('leaf' as const, 'intermediate' as const),
  work: fc.record(
    {
      kernel: fc.constantFrom('spin' as const, 'hash' as const, 'sleep' as const),
      totalNanos: fc.integer({ min: 0, max: 80 }).map((ms) => ms * MS),
      perCallNanos: fc.integer({ min: 1, max: 30 }).map((ms) => ms * MS),
      blockedNanosPerCall: fc.integer({ min: 0, max: 20 }).map((ms) => ms * MS),
      failProbability: fc.constantFrom(0, 0, 0.1, 0.5),
    },
    { requiredKeys: ['kernel', 'totalNanos'] },
  ),
});

const job: fc.Arbitrary<JobSpec> = fc.record({
  class: fc.constantFrom('interactive', 'scan', 'export'),
  basePriority: fc.integer({ min: 0, max: 100 }),
  retries: fc.integer({ min: 0, max: 3 }),
  tasks: fc.array(fc.record({ splits: fc.array(split, { maxLength: 6 }) }), {
    minLength: 1,
    maxLength: 3,
  }),
});

type Action =
  | { kind: 'submit'; job: JobSpec }
  | { kind: 'advance'; ms: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'policy'; policy: PolicyName }
  | { kind: 'workers'; workers: number }
  | { kind: 'knobs'; m: number; quantumMs: number; fairness: 'split' | 'task' | 'query' };

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 5, arbitrary: job.map((j) => ({ kind: 'submit' as const, job: j })) },
  {
    weight: 3,
    arbitrary: fc.integer({ min: 1, max: 60 }).map((ms) => ({ kind: 'advance' as const, ms })),
  },
  { weight: 1, arbitrary: fc.nat().map((pick) => ({ kind: 'cancel' as const, pick })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<PolicyName>('mlfq', 'priority', 'fifo', 'fair')
      .map((policy) => ({ kind: 'policy' as const, policy })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 6 })
      .map((workers) => ({ kind: 'workers' as const, workers })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('knobs' as const),
      m: fc.constantFrom(1.5, 2, 4),
      quantumMs: fc.constantFrom(1, 5, 20),
      fairness: fc.constantFrom('split' as const, 'task' as const, 'query' as const),
    }),
  },
);

describe('executor invariants under random workloads (simulator)', () => {
  it('every job ends exactly once, nothing runs twice, counters always balance', () => {
    fc.assert(
      fc.property(
        fc.array(action, { maxLength: 40 }),
        fc.integer({ min: 1, max: 1000 }),
        (actions, seed) => {
          const { sim, ex, ends } = simRig(
            { workers: 3, quantumMs: 5, maxQueued: 60, retryBackoffMs: 2 },
            seed,
          );
          const submitted: number[] = [];
          const balanced = () => {
            const c = ex.counters;
            expect(c.submitted).toBe(c.succeeded + c.failed + c.cancelled + c.rejected + c.live);
            expect(c.submitted).toBe(submitted.length);
          };
          for (const a of actions) {
            switch (a.kind) {
              case 'submit':
                submitted.push(ex.submitJob(a.job));
                break;
              case 'advance':
                sim.runUntil(sim.now() + a.ms * MS);
                break;
              case 'cancel':
                if (submitted.length > 0) ex.cancelJob(submitted[a.pick % submitted.length]!);
                break;
              case 'policy':
                ex.setPolicy(a.policy);
                break;
              case 'workers':
                ex.setWorkers(a.workers);
                break;
              case 'knobs':
                ex.configure({
                  levelTimeMultiplier: a.m,
                  quantumMs: a.quantumMs,
                  fairness: a.fairness,
                });
                break;
            }
            balanced();
          }
          sim.runUntilIdle();
          balanced();
          expect(ex.counters.live).toBe(0);
          const endedIds = ends.map((e) => e.jobId).sort((a, b) => a - b);
          expect(endedIds).toEqual([...submitted].sort((a, b) => a - b));
          expect(spanProblems(ex.spans.read(0).columns).problems).toEqual([]);
          const c = ex.counters;
          expect(
            c.splitsQueued + c.splitsRunning + c.splitsWaiting + c.splitsBlocked + c.splitsRetrying,
          ).toBe(0);
          expect(ex.backend.idleWorkers()).toHaveLength(ex.backend.workerCount);
        },
      ),
      { numRuns: 150 },
    );
  });
});
