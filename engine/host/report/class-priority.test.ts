// A class's priority in the report is the one its jobs are submitted with, ended or not.
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { formatReport } from './format.ts';
import { runWorkload } from './run-workload.ts';

describe('a class’s priority in the report', () => {
  it('is its declared one, though none of its jobs ended in the run', async () => {
    const klass = (name: string, totalMs: number, basePriority: number) => ({
      name,
      basePriority,
      arrival: { kind: 'once', count: 2 },
      tasks: 1,
      splits: { leaf: 0, intermediate: 1 },
      work: { totalMs },
    });
    const workload = parseWorkload({
      name: 'prio',
      durationMs: 1000,
      config: { workers: 1, policy: 'priority' },
      classes: [klass('quick', 5, 10), klass('endless', 60_000, 70)],
    });
    const { report } = await runWorkload(workload);
    expect(report.classes['endless']).toMatchObject({ succeeded: 0, basePriority: 70 });
    expect(report.classes['quick']).toMatchObject({ succeeded: 2, basePriority: 10 });
    // Before: `-` in the text report's prio column.
    const row = formatReport(report)
      .split('\n')
      .find((l) => l.startsWith('endless'))!;
    expect(row.split(/\s+/)[1]).toBe('70');
  });
});
