import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyName } from '../../../shared/config.ts';
import type { Frame, JobSpecWire, SplitSpecWire } from '../../../shared/protocol.ts';
import type { JobSpec, SplitSpec } from '../../runtime/executor/job-spec.ts';
import { MS } from '../../runtime/executor/testing.ts';
import { Session } from './session.ts';

const split: fc.Arbitrary<SplitSpecWire> = fc.record({
  kind: fc.constantFrom('leaf' as const, 'intermediate' as const),
  work: fc.record(
    {
      kernel: fc.constantFrom('spin' as const, 'sleep' as const),
      totalNanos: fc.integer({ min: 0, max: 60 }).map((ms) => ms * MS),
      perCallNanos: fc.integer({ min: 1, max: 20 }).map((ms) => ms * MS),
      blockedNanosPerCall: fc.integer({ min: 0, max: 15 }).map((ms) => ms * MS),
      failProbability: fc.constantFrom(0, 0, 0.2),
    },
    { requiredKeys: ['kernel', 'totalNanos'] },
  ),
});

const job: fc.Arbitrary<JobSpecWire> = fc.record({
  class: fc.constantFrom('interactive', 'scan'),
  basePriority: fc.integer({ min: 0, max: 100 }),
  retries: fc.integer({ min: 0, max: 2 }),
  tasks: fc.array(
    fc.record(
      { splits: fc.array(split, { maxLength: 5 }), open: fc.boolean() },
      {
        requiredKeys: ['splits'],
      },
    ),
    { minLength: 1, maxLength: 2 },
  ),
});

type Action =
  | { kind: 'submit'; job: JobSpecWire }
  | { kind: 'advance'; ms: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'close'; pick: number }
  | { kind: 'reprioritize'; pick: number; priority: number }
  | { kind: 'addSplits'; pick: number; splits: SplitSpecWire[] }
  | { kind: 'pause' | 'resume' }
  | { kind: 'policy'; policy: PolicyName }
  | { kind: 'workers'; workers: number }
  | { kind: 'configure'; quantumMs: number; maxQueued: number; preemptive: boolean };

const pick = fc.nat();
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: job.map((j) => ({ kind: 'submit' as const, job: j })) },
  {
    weight: 4,
    arbitrary: fc.integer({ min: 1, max: 80 }).map((ms) => ({ kind: 'advance' as const, ms })),
  },
  { weight: 1, arbitrary: pick.map((p) => ({ kind: 'cancel' as const, pick: p })) },
  { weight: 1, arbitrary: pick.map((p) => ({ kind: 'close' as const, pick: p })) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('reprioritize' as const),
      pick,
      priority: fc.integer({ min: 0, max: 100 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('addSplits' as const),
      pick,
      splits: fc.array(split, { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom({ kind: 'pause' as const }, { kind: 'resume' as const }),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<PolicyName>('mlfq', 'priority', 'fifo', 'fair')
      .map((policy) => ({ kind: 'policy' as const, policy })),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1, max: 4 })
      .map((w) => ({ kind: 'workers' as const, workers: w })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('configure' as const),
      quantumMs: fc.constantFrom(2, 5, 20),
      maxQueued: fc.constantFrom(8, 40, 1000),
      preemptive: fc.boolean(),
    }),
  },
);

function balanced(f: Frame): void {
  const c = f.counters;
  expect(c.submitted, `frame ${f.seq}`).toBe(
    c.succeeded + c.failed + c.cancelled + c.rejected + c.live,
  );
  for (const v of Object.values(c)) expect(v).toBeGreaterThanOrEqual(0);
}

async function play(actions: Action[]): Promise<void> {
  const s = new Session({ config: { workers: 2, quantumMs: 5 }, frameHz: 50 });
  const jobs: number[] = [];
  const tasks: number[] = [];
  const ends = new Map<number, number>();
  s.executor.onJobEnd((e) => ends.set(e.jobId, (ends.get(e.jobId) ?? 0) + 1));
  s.onFrame(balanced);
  const at = <T>(list: T[], i: number): T | undefined => list[i % Math.max(1, list.length)];
  for (const a of actions) {
    switch (a.kind) {
      case 'submit': {
        // A job with an open task is a host's own (the protocol refuses one: no command closes
        // it), submitted to the executor as a host that feeds its tasks does.
        if (a.job.tasks.some((t) => t.open === true)) {
          const id = s.executor.submitJob(a.job as JobSpec);
          if (s.executor.jobRow(id)?.state !== 'rejected') {
            jobs.push(id);
            tasks.push(...s.executor.taskIds(id));
          }
          break;
        }
        const r = await s.handleCommand({ type: 'submitJob', job: a.job });
        if (r.ok) {
          jobs.push(r['jobId'] as number);
          tasks.push(...(r['taskIds'] as number[]));
        } else expect(r.error.code).toBe('QUEUE_FULL');
        break;
      }
      case 'advance':
        s.advance(a.ms);
        break;
      case 'cancel':
        await s.handleCommand({ type: 'cancelJob', jobId: at(jobs, a.pick) ?? 0 });
        break;
      case 'reprioritize':
        await s.handleCommand({
          type: 'reprioritize',
          jobId: at(jobs, a.pick) ?? 0,
          priority: a.priority,
        });
        break;
      case 'addSplits':
      case 'close': {
        // Not a protocol command: hosts that feed open tasks call the executor (Trino's controller).
        const task = at(tasks, a.pick);
        if (task === undefined) break;
        try {
          if (a.kind === 'addSplits') s.executor.addSplits(task, a.splits as SplitSpec[]);
          else s.executor.closeTask(task);
        } catch (e) {
          expect((e as { code?: string }).code).toMatch(/^(UNKNOWN_ID|QUEUE_FULL)$/);
        }
        break;
      }
      case 'pause':
      case 'resume':
        expect((await s.handleCommand({ type: a.kind })).ok).toBe(true);
        break;
      case 'policy':
        expect((await s.handleCommand({ type: 'setPolicy', policy: a.policy })).ok).toBe(true);
        break;
      case 'workers':
        expect((await s.handleCommand({ type: 'setWorkers', workers: a.workers })).ok).toBe(true);
        break;
      case 'configure': {
        const { quantumMs, maxQueued, preemptive } = a;
        const config = { quantumMs, maxQueued, preemptive };
        expect((await s.handleCommand({ type: 'configure', config })).ok).toBe(true);
      }
    }
    s.frame();
  }
  s.executor.resume();
  for (const t of tasks) {
    try {
      s.executor.closeTask(t);
    } catch {
      // already ended with its job
    }
  }
  s.runToIdle();
  const last = s.frame();
  expect(last.counters.live).toBe(0);
  expect(last.counters.submitted).toBe(jobs.length + last.counters.rejected);
  expect([...ends.values()].every((n) => n === 1)).toBe(true);
  expect(ends.size).toBe(last.counters.submitted);
  await s.close();
}

describe('Session frames under random commands (simulator)', () => {
  it('submitted = succeeded + failed + cancelled + rejected + live at every frame; each job ends once', async () => {
    await fc.assert(fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 40 }), play), {
      numRuns: 60,
      seed: 20_240_601,
    });
  });
});
