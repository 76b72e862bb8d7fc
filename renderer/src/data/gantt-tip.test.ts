import { describe, expect, it } from 'vitest';
import { spanTipRows } from './gantt-tip.ts';
import { syntheticFrame } from './synthetic-frame.ts';
import { Telemetry } from './telemetry.ts';

const BANDS = ['p0-19', 'p20-39', 'p40-59', 'p60-79', 'p80-100'];

describe('the Gantt tooltip', () => {
  it('names a span’s level as the frames do: the priority band, not its index', () => {
    const t = new Telemetry();
    t.ingestFrame(
      syntheticFrame({
        seq: 1,
        timeMs: 100,
        labels: BANDS,
        config: { policy: 'priority' },
        spans: [{ worker: 0, startMs: 10, endMs: 90, job: 3, level: 2 }],
      }),
    );
    const rows = new Map(spanTipRows(t, t.spans.slot(0), '0'));
    expect(rows.get('level')).toBe('p40-59');
  });

  it('names a span from before a policy switch by the levels it ran under', () => {
    const t = new Telemetry();
    t.ingestFrame(
      syntheticFrame({
        seq: 1,
        timeMs: 100,
        spans: [{ worker: 0, startMs: 10, endMs: 90, job: 3, level: 2 }],
      }),
    );
    t.ingestFrame(
      syntheticFrame({ seq: 2, timeMs: 200, labels: BANDS, config: { policy: 'priority' } }),
    );
    const rows = new Map(spanTipRows(t, t.spans.slot(0), '0'));
    expect(rows.get('level')).toBe('L2');
  });

  it('names a graph node’s span by its node id first', () => {
    const t = new Telemetry();
    const frame = syntheticFrame({
      seq: 1,
      timeMs: 100,
      spans: [{ worker: 0, startMs: 10, endMs: 90, job: 9, level: 0, cls: 'etl' }],
    });
    const names = [...frame.spans.names, 'extract'];
    t.ingestFrame({ ...frame, spans: { ...frame.spans, names, node: [names.length - 1] } });
    const rows = spanTipRows(t, t.spans.slot(0), '0');
    expect(rows[0]).toEqual(['node', 'extract']);
    expect(new Map(rows).get('job')).toBe('9 (etl)');
  });
});
