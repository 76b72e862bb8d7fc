import { describe, expect, it } from 'vitest';
import { recordingContext, TEST_THEME } from './canvas-testing.ts';
import type { WorkerRow } from '../../../shared/protocol.ts';
import { drawGantt, laneAt, laneGeometry, type GanttLayout } from './gantt-draw.ts';
import { groupText, laneGroups, workerGroups, type LaneGroups } from './node-lanes.ts';
import { syntheticFrame } from './synthetic-frame.ts';
import { Telemetry } from './telemetry.ts';

const row = (id: number, node?: string, state: WorkerRow['state'] = 'idle'): WorkerRow => ({
  id,
  state,
  splitId: null,
  jobId: null,
  sinceNanos: null,
  ...(node === undefined ? {} : { node }),
});

// Ids interleaved across nodes, as the coordinator hands out the lowest free ids as nodes join;
// id 4 has no node behind it now (its node left).
const fleet = [row(0, 'b'), row(1, 'a'), row(2, 'b', 'running'), row(3, 'a'), row(4)];

describe('lanes grouped by node', () => {
  it('come node by node (names in order), ids in order within a node, the ids without one last', () => {
    const g = laneGroups(fleet, 5)!;
    expect(g.order).toEqual([1, 3, 0, 2, 4]);
    expect(g.rowOf).toEqual([2, 0, 3, 1, 4]);
  });

  it('have a header per node with its name and worker count', () => {
    const g = laneGroups(fleet, 5)!;
    expect(g.headers).toEqual([
      { row: 0, node: 'a', lanes: 2, text: 'a · 2 workers' },
      { row: 2, node: 'b', lanes: 2, text: 'b · 2 workers' },
      { row: 4, node: null, lanes: 1, text: 'no node · 1 worker' },
    ]);
  });

  it('label each lane `node · worker N`', () => {
    expect(laneGroups(fleet, 5)!.labels).toEqual([
      'b · worker 0',
      'a · worker 1',
      'b · worker 2',
      'a · worker 3',
      'worker 4',
    ]);
  });

  it('keep a former worker’s lane (no row in the frame) in the last group', () => {
    const g = laneGroups([row(0, 'a'), row(1, 'b')], 3)!;
    expect(g.order).toEqual([0, 1, 2]);
    expect(g.headers.map((h) => h.text)).toEqual([
      'a · 1 worker',
      'b · 1 worker',
      'no node · 1 worker',
    ]);
  });

  it('order node names as a reader does (node2 before node10)', () => {
    const g = laneGroups([row(0, 'node10'), row(1, 'node2'), row(2, 'node1')], 3)!;
    expect(g.headers.map((h) => h.node)).toEqual(['node1', 'node2', 'node10']);
  });

  it('shorten a long node name in the lane label but not in its header', () => {
    const g = laneGroups([row(0, 'worker-node-east-17')], 1)!;
    expect(g.labels[0]).toBe('worker-node… · worker 0');
    expect(g.headers[0]!.text).toBe('worker-node-east-17 · 1 worker');
  });

  it('are not grouped when no worker carries a node (threads, sim)', () => {
    expect(laneGroups([row(0), row(1)], 2)).toBeNull();
    expect(workerGroups([row(0), row(1)])).toBeNull();
  });
});

describe('the workers panel’s groups', () => {
  it('list the workers node by node, each headed by its counts', () => {
    const groups = workerGroups(fleet)!;
    expect(groups.map((g) => [g.node, g.workers.map((w) => w.id)])).toEqual([
      ['a', [1, 3]],
      ['b', [0, 2]],
      [null, [4]],
    ]);
    expect(groups.map(groupText)).toEqual([
      'a · 2 workers · 0 running',
      'b · 2 workers · 1 running',
      'no node · 1 worker · 0 running',
    ]);
  });
});

describe('the Gantt grouped by node', () => {
  const layout = (groups: LaneGroups | null): GanttLayout => ({
    width: 800,
    height: 22 + 5 * 20 + 3 * 16,
    gutter: 150,
    axis: 22,
    lanes: 5,
    groups,
  });

  it('puts each lane under its node’s header band', () => {
    const geo = laneGeometry(layout(laneGroups(fleet, 5)));
    expect(geo.laneH).toBe(20);
    // a: header at 22, lanes 1 and 3; b: header at 78, lanes 0 and 2; no node: header at 134.
    expect(geo.top).toEqual([94, 38, 114, 58, 150]);
    expect(laneAt(geo, 30)).toBe(-1); // a's header
    expect(laneAt(geo, 40)).toBe(1);
    expect(laneAt(geo, 95)).toBe(0);
  });

  it('keeps lanes in id order with no header when ungrouped', () => {
    const geo = laneGeometry({ ...layout(null), height: 122 });
    expect(geo.top).toEqual([22, 42, 62, 82, 102]);
    expect(laneAt(geo, 45)).toBe(1);
  });

  it('draws the headers, the lane labels and each span on its node’s lane', () => {
    const t = new Telemetry();
    t.ingestFrame(
      syntheticFrame({
        seq: 1,
        timeMs: 1000,
        workerRows: fleet,
        spans: [{ worker: 1, startMs: 100, endMs: 900, job: 1, level: 0 }],
      }),
    );
    const { ctx, texts, rects } = recordingContext();
    const l = layout(laneGroups(t.latest!.workers, 5));
    const r = drawGantt(ctx, t.spans, [], l, 0, 1000, 'job', TEST_THEME);
    expect(r.headers).toBe(3);
    const written = texts.map((x) => x.text);
    expect(written).toEqual(
      expect.arrayContaining(['a · 2 workers', 'b · 2 workers', 'a · worker 1', 'b · worker 0']),
    );
    // Worker 1 is the first lane under a's header (38..58): its 15 px bar is centred there.
    expect(rects).toHaveLength(1);
    expect(rects[0]!.y).toBeCloseTo(40.5);
  });
});
