// Scenarios: graph presets through the workload path (simulator).
import { describe, expect, it } from 'vitest';
import { parseWorkload } from '../../../../shared/workload.ts';
import { loadPreset, PRESETS } from '../../../core/workload/presets/index.ts';
import { runWorkload } from '../run-workload.ts';

describe('graph workloads', () => {
  it(
    'diamond: critical-path finishes before FIFO, and the dag figures obey their bounds',
    { timeout: 30_000 },
    async () => {
      const cp = (await runWorkload(loadPreset('diamond'))).report;
      const doc = structuredClone(PRESETS['diamond']) as { graph: { policy: string } };
      doc.graph.policy = 'fifo';
      const fifo = (await runWorkload(parseWorkload(doc))).report;
      expect(cp.makespanMs).toBeLessThan(fifo.makespanMs);
      const dag = cp.dag!;
      expect(dag.lowerBoundMs).toBe(Math.max(dag.workMs / 2, dag.criticalPathMs));
      expect(dag.efficiency).toBeLessThanOrEqual(1);
      expect(dag.grahamRatio).toBeLessThanOrEqual(1);
      expect(cp.classes['diamond']).toMatchObject({ jobs: 1, succeeded: 1 });
    },
  );

  it(
    'taskflow-shapes runs every shape and the trace links graph edges with flow events',
    { timeout: 30_000 },
    async () => {
      const { report, trace } = await runWorkload(loadPreset('taskflow-shapes'), { trace: true });
      expect(report.dags!.map((d) => d.name)).toEqual([
        'chain-0',
        'binary-tree-1',
        'independent-2',
        'wavefront-3',
        'layered-random-4',
      ]);
      expect(report.dags!.every((d) => d.failed === 0)).toBe(true);
      const starts = trace!.traceEvents.filter((e) => e.ph === 's');
      const slices = trace!.traceEvents.filter((e) => e.ph === 'X');
      expect(slices.length).toBe(report.dags!.reduce((n, d) => n + d.nodes, 0));
      // Each slice is named by its node (the chain's n0 … n199), not only its graph's job.
      const chainNodes = slices.filter((e) => e.args!['job'] === slices[0]!.args!['job']);
      expect(new Set(chainNodes.map((e) => e.name)).size).toBe(chainNodes.length);
      expect(chainNodes.map((e) => e.name)).toContain('n199');
      expect(chainNodes.every((e) => e.args!['node'] === e.name)).toBe(true);
      // Every edge of every graph gets one flow (the chain alone has 199).
      expect(starts.length).toBeGreaterThan(199);
      expect(starts.map((e) => e.id)).toEqual(starts.map((_, i) => i + 1));
    },
  );

  it('a bad graph document names the field inside the workload, before anything runs', () => {
    expect(() => parseWorkload({ graph: { generator: 'chain', length: 0 } })).toThrow(
      'graph.length must be >= 1',
    );
  });
});
