import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { runWorkload, type RunProgress } from './run-workload.ts';

async function withProgress(preset: string) {
  const points: RunProgress[] = [];
  const run = await runWorkload(loadPreset(preset), { onProgress: (p) => points.push(p) });
  return { points, report: run.report };
}

describe('progress of a graph workload', () => {
  it('counts nodes done of all graphs, from 0 to the total, as the sim runs', async () => {
    const { points, report } = await withProgress('taskflow-shapes');
    const total = report.dags!.reduce((n, d) => n + d.nodes, 0);
    expect(points[0]).toMatchObject({ elapsedMs: 0, nodes: { done: 0, total } });
    expect(points.at(-1)).toMatchObject({
      nodes: { done: total, total },
      jobsEnded: report.dags!.length,
      jobsLive: 0,
      quanta: report.counters.quanta,
    });
    // Not just a start and an end: the line moves while the graphs run.
    const between = points.filter((p) => p.nodes!.done > 0 && p.nodes!.done < total);
    expect(between.length).toBeGreaterThan(3);
    for (let i = 1; i < points.length; i++) {
      expect(points[i]!.nodes!.done).toBeGreaterThanOrEqual(points[i - 1]!.nodes!.done);
      expect(points[i]!.elapsedMs).toBeGreaterThanOrEqual(points[i - 1]!.elapsedMs);
    }
    expect(points.at(-1)!.elapsedMs).toBeCloseTo(report.makespanMs, 3);
  });

  it('watching a run changes nothing in its report', async () => {
    const watched = await withProgress('random-layered-dag');
    const plain = await runWorkload(loadPreset('random-layered-dag'));
    expect(watched.points.length).toBeGreaterThan(1);
    expect(watched.report).toEqual(plain.report);
  });
});
