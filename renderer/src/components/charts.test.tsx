import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import { lastSpanOf } from '../data/chart-window.ts';
import { selectionRates } from '../data/derive.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { SelectionsChart } from './charts.tsx';

describe('the selections chart', () => {
  it('keeps its 5 s of engine time while paused, however many frames the pause brings', () => {
    const telemetry = new Telemetry();
    // 10 s running at 10 Hz, level 0 selected 20 times a second…
    for (let f = 0; f <= 100; f++) {
      telemetry.ingestFrame(
        syntheticFrame({ seq: f, timeMs: f * 100, depth: [1], selections: [2 * f] }),
      );
    }
    // …then paused for 10 s of wall time: engine time and the counters stand still.
    for (let f = 101; f <= 200; f++) {
      telemetry.ingestFrame(
        syntheticFrame({ seq: f, timeMs: 10_000, depth: [1], selections: [200], paused: true }),
      );
    }
    const html = renderStatic(<SelectionsChart />, { telemetry });
    expect(html).toContain('per second, last 5.0 s');
    // The bar it draws (recharts draws nothing server-side): the rate before the pause, not 0/s.
    expect(selectionRates(lastSpanOf(telemetry.points, 5_000))[0]?.rate).toBeCloseTo(20);
  });
});
