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
});
