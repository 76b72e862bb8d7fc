// The app's trace and CSV exports: the same trace builder as the CLI (flows, `cat` on every
// event, instant names that do not repeat their kind), and CSV rows that carry policy and config.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../shared/config.ts';
import type { EngineEvent } from '../../../shared/protocol.ts';
import { seriesCsv } from './csv-export.ts';
import { syntheticFrame } from './synthetic-frame.ts';
import { Telemetry } from './telemetry.ts';
import { buildTrace } from './trace-export.ts';

function telemetry(events: EngineEvent[] = []): Telemetry {
  const t = new Telemetry();
  for (let f = 1; f <= 5; f++) {
    const frame = syntheticFrame({
      seq: f,
      timeMs: f * 100,
      depth: [2, 1, 0, 0, 0],
      levelMs: [f * 10, f * 5, 0, 0, 0],
      spans: [
        { worker: 0, startMs: f * 100 - 60, endMs: f * 100 - 40, job: f, level: 0 },
        { worker: 1, startMs: f * 100 - 30, endMs: f * 100, job: f, level: 1 },
      ],
    });
    t.ingestFrame({ ...frame, events: f === 3 ? events : [] });
  }
  return t;
}

describe('the app trace', () => {
  it('gives every event a cat, metadata and counters included', () => {
    const doc = buildTrace(telemetry(), 0, 1000);
    const missing = doc.traceEvents.filter((e) => typeof e.cat !== 'string' || e.cat === '');
    expect(missing).toEqual([]);
    const byPh = (ph: string) => doc.traceEvents.filter((e) => e.ph === ph);
    expect(byPh('M').every((e) => e.cat === '__metadata')).toBe(true);
    expect(byPh('C').length).toBeGreaterThan(0);
    // The level clock is named as such, not as "scheduled" time.
    expect(new Set(byPh('C').map((e) => e.name))).toEqual(
      new Set(['queue depth', 'level clock ms', 'utilization %']),
    );
  });

  it('names an instant by its detail, without repeating its kind', () => {
    const doc = buildTrace(
      telemetry([
        { timeNanos: 250e6, kind: 'policy', detail: 'policy: "mlfq" → "fifo"' },
        { timeNanos: 250e6, kind: 'cancel', detail: 'job 4' },
      ]),
      0,
      1000,
    );
    const instants = doc.traceEvents.filter((e) => e.ph === 'i');
    expect(instants.map((e) => [e.name, e.cat])).toEqual([
      ['policy: "mlfq" → "fifo"', 'policy'],
      ['cancel: job 4', 'cancel'],
    ]);
  });

  it('draws graph edges as flow events from the predecessor to the successor', () => {
    // Synthetic spans get split ids 0 and 1 within each frame; the window holds frame 1 only:
    // split 0 on worker 0 (40–60 ms) → split 1 on worker 1 (70–100 ms).
    const doc = buildTrace(telemetry(), 0, 100, { edges: [[0, 1]] });
    const flows = doc.traceEvents.filter((e) => e.ph === 's' || e.ph === 'f');
    expect(flows.map((e) => [e.ph, e.id, e.cat, e.tid, e.ts])).toEqual([
      ['s', 1, 'dag', 1, 50_000],
      ['f', 1, 'dag', 2, 70_000],
    ]);
  });

  it('draws the latest graph run’s edges (from its frames) between its node slices', () => {
    const t = new Telemetry();
    const frame = syntheticFrame({
      seq: 1,
      timeMs: 100,
      // A graph run's spans: job = the run's jobId, task = graph 0, split = node (0, 1, 2).
      spans: [
        { worker: 0, startMs: 0, endMs: 20, job: 9, level: 0, cls: 'chain' },
        { worker: 1, startMs: 30, endMs: 50, job: 9, level: 0, cls: 'chain' },
        { worker: 0, startMs: 60, endMs: 90, job: 9, level: 0, cls: 'chain' },
      ],
    });
    const graph = { jobId: 9, edges: [[0, 0, 1] as [number, number, number], [0, 1, 2]] };
    t.ingestFrame({ ...frame, graph: graph as unknown as NonNullable<typeof frame.graph> });
    const doc = buildTrace(t, 0, 100);
    const flows = doc.traceEvents.filter((e) => e.ph === 's' || e.ph === 'f');
    expect(flows.map((e) => [e.ph, e.id, e.tid, e.ts])).toEqual([
      ['s', 1, 1, 10_000],
      ['f', 1, 2, 30_000],
      ['s', 2, 2, 40_000],
      ['f', 2, 1, 60_000],
    ]);
  });

  it('names a graph node’s slice by its node id, as the CLI’s trace does', () => {
    // The frames name each graph span's node (`spans.node`, an index into `spans.names`); the
    // app's trace named every slice `class #job` (`chain #9` for all three nodes).
    const t = new Telemetry();
    const frame = syntheticFrame({
      seq: 1,
      timeMs: 100,
      spans: [
        { worker: 0, startMs: 0, endMs: 20, job: 9, level: 0, cls: 'chain' },
        { worker: 1, startMs: 30, endMs: 50, job: 9, level: 0, cls: 'chain' },
        { worker: 0, startMs: 60, endMs: 70, job: 4, level: 0, cls: 'web' },
      ],
    });
    const names = [...frame.spans.names, 'extract', 'load'];
    const node = [names.indexOf('extract'), names.indexOf('load'), -1];
    t.ingestFrame({ ...frame, spans: { ...frame.spans, names, node } });
    const slices = buildTrace(t, 0, 100).traceEvents.filter((e) => e.ph === 'X');
    expect(slices.map((e) => e.name).sort()).toEqual(['extract', 'load', 'web #4']);
    expect(slices[0]!.args).toMatchObject({ node: 'extract', job: 9 });
  });

  it('says what policy and config it was taken under', () => {
    const doc = buildTrace(telemetry(), 0, 1000);
    expect(doc.metadata).toMatchObject({
      policy: DEFAULT_ENGINE_CONFIG.policy,
      config: DEFAULT_ENGINE_CONFIG,
    });
  });
});

describe('the app CSV', () => {
  it('rows carry the policy and config; the level clock and charged time are named apart', () => {
    const t = telemetry();
    const csv = seriesCsv(t.points.toArray(), 5, {
      policy: 'mlfq',
      config: DEFAULT_ENGINE_CONFIG,
    });
    const [header, first] = csv.trim().split('\n');
    const columns = header!.split(',');
    expect(columns).toContain('policy');
    expect(columns).toContain('config');
    expect(columns).toContain('level_clock_ms_L0');
    expect(columns).toContain('charged_ms_L0');
    expect(columns).not.toContain('scheduled_ms_L0');
    expect(first!.split(',')[columns.indexOf('policy')]).toBe('mlfq');
    const config = first!.slice(first!.indexOf('"'));
    expect(JSON.parse(config.slice(1, -1).replaceAll('""', '"'))).toEqual(DEFAULT_ENGINE_CONFIG);
  });
});
