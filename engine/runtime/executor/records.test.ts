import { describe, expect, it } from 'vitest';
import { ExecJob, ExecSplit, ExecTask, LiveSplits } from './records.ts';

function splits(n: number): ExecSplit[] {
  const job = new ExecJob(1, 'q', 0, 50, 0, 0);
  const task = new ExecTask(1, job, 0, false);
  const work = { kernel: 'spin' as const, totalNanos: 1 };
  return Array.from({ length: n }, (_, i) => new ExecSplit(i, job, task, false, work, 0, 'query'));
}

describe('LiveSplits', () => {
  it('holds one split, then many, as a Set would, in insertion order', () => {
    const [a, b, c] = splits(3) as [ExecSplit, ExecSplit, ExecSplit];
    const live = new LiveSplits();
    expect(live.size).toBe(0);
    live.add(a);
    live.add(a);
    expect(live.size).toBe(1);
    expect([...live]).toEqual([a]);
    expect(live.delete(b)).toBe(false);
    live.add(b);
    live.add(c);
    expect([...live]).toEqual([a, b, c]);
    expect(live.delete(b)).toBe(true);
    expect(live.delete(b)).toBe(false);
    expect([...live]).toEqual([a, c]);
    expect(live.size).toBe(2);
  });

  it('is empty again once its one split is deleted', () => {
    const [a] = splits(1) as [ExecSplit];
    const live = new LiveSplits();
    live.add(a);
    expect(live.delete(a)).toBe(true);
    expect(live.size).toBe(0);
    expect([...live]).toEqual([]);
  });
});

describe('ExecJob.addTask', () => {
  it('keeps tasks in order, each job its own list', () => {
    const one = new ExecJob(1, 'q', 0, 50, 0, 0);
    const two = new ExecJob(2, 'q', 0, 50, 0, 0);
    const t1 = new ExecTask(1, one, 0, false);
    const t2 = new ExecTask(2, one, 1, false);
    one.addTask(t1);
    one.addTask(t2);
    expect(one.tasks).toEqual([t1, t2]);
    expect(two.tasks).toEqual([]);
  });
});
