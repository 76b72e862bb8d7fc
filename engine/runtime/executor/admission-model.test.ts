import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Admission, type AdmissionLimits } from './admission.ts';
import { ExecJob, ExecSplit, ExecTask } from './records.ts';

/**
 * Trino's `TimeSharingTaskExecutor` admission written plainly, as the reference: one list of every
 * registered task (`addTask`), `scheduleTaskIfNecessary` for the task whose counts changed, then
 * `addNewEntrants` polling `pollNextSplitWorker` — the first task in list order that is under its
 * maximum and gives a split moves to the end.
 */
class TrinoAdmissionModel {
  readonly tasks: { id: number; queue: number[]; running: number }[] = [];
  private running = 0;

  constructor(private readonly limits: AdmissionLimits) {}

  addTask(id: number): void {
    this.tasks.push({ id, queue: [], running: 0 });
  }

  enqueue(id: number, split: number): void {
    this.task(id).queue.push(split);
  }

  splitFinished(id: number): void {
    this.task(id).running--;
    this.running--;
  }

  /** scheduleTaskIfNecessary(task) then addNewEntrants(); returns the splits started. */
  admit(id: number): number[] {
    const out: number[] = [];
    const t = this.task(id);
    const guaranteed = Math.min(this.limits.guaranteedPerTask, this.limits.maxDriversPerTask);
    while (t.running < guaranteed && t.queue.length > 0) out.push(this.start(t));
    while (this.running < this.limits.minDrivers) {
      const i = this.tasks.findIndex(
        (x) => x.running < this.limits.maxDriversPerTask && x.queue.length > 0,
      );
      const next = this.tasks[i];
      if (next === undefined) break;
      out.push(this.start(next));
      this.tasks.splice(i, 1);
      this.tasks.push(next);
    }
    return out;
  }

  private start(t: { queue: number[]; running: number }): number {
    t.running++;
    this.running++;
    return t.queue.shift()!;
  }

  private task(id: number): { id: number; queue: number[]; running: number } {
    return this.tasks.find((t) => t.id === id)!;
  }
}

type Op = { kind: 'add'; task: number; count: number } | { kind: 'end'; pick: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    task: fc.nat({ max: 5 }),
    count: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant('end' as const), pick: fc.nat() }),
);

describe("Trino's addTask / pollNextSplitWorker round robin, against a plain model", () => {
  it('admits leaf splits in the same order as Trino for random arrivals and endings', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 3 }),
        fc.array(opArb, { minLength: 1, maxLength: 120 }),
        (guaranteedPerTask, minDrivers, extraMax, ops) => {
          const limits = {
            guaranteedPerTask,
            minDrivers,
            maxDriversPerTask: guaranteedPerTask + extraMax,
          };
          const model = new TrinoAdmissionModel(limits);
          const admission = new Admission();
          const job = new ExecJob(1, 'q', 0, 50, 0, 0);
          const tasks: ExecTask[] = [];
          for (let id = 0; id < 6; id++) {
            const task = new ExecTask(id, job, id, true);
            admission.register(task);
            model.addTask(id);
            tasks.push(task);
          }
          const admitted: ExecSplit[] = [];
          let nextSplit = 0;
          for (const op of ops) {
            const got: number[] = [];
            const start = (s: ExecSplit): void => {
              got.push(s.id);
              admitted.push(s);
            };
            let focus: ExecTask;
            let expected: number[];
            if (op.kind === 'add') {
              focus = tasks[op.task]!;
              for (let i = 0; i < op.count; i++) {
                const id = nextSplit++;
                const work = { kernel: 'spin' as const, totalNanos: 1 };
                admission.enqueue(focus, new ExecSplit(id, job, focus, true, work, 0, 'task'));
                model.enqueue(op.task, id);
              }
              expected = model.admit(op.task);
            } else {
              if (admitted.length === 0) continue;
              const [ended] = admitted.splice(op.pick % admitted.length, 1);
              focus = ended!.task;
              admission.release(focus);
              model.splitFinished(focus.id);
              expected = model.admit(focus.id);
            }
            admission.admit(limits, start, focus);
            expect(got).toEqual(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
