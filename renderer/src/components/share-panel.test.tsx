import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { ChargedShare, PriorityDetail } from './share-panel.tsx';

const BANDS = ['p0-19', 'p20-39', 'p40-59', 'p60-79', 'p80-100'];

describe('the priority panel', () => {
  it('says the span its aging boosts cover when a policy switch left less than the window', () => {
    const telemetry = new Telemetry();
    for (let f = 0; f < 70; f++) {
      telemetry.ingestFrame(
        syntheticFrame({ seq: f, timeMs: f * 100, chargedMs: [f, 0, 0, 0, 0] }),
      );
    }
    // Switched to priority at 7 s: 3 s of it held at 10 s, under a 5 s window.
    for (let f = 70; f <= 100; f++) {
      telemetry.ingestFrame(
        syntheticFrame({
          seq: f,
          timeMs: f * 100,
          labels: BANDS,
          chargedMs: [f, f, 0, 0, 0],
          agingBoosts: [0, f - 70, 0, 0, 0],
          config: { policy: 'priority' },
        }),
      );
    }
    const share = renderStatic(<ChargedShare unit="band" />, { telemetry });
    expect(share).toContain('(3.0 s held)');
    const detail = renderStatic(<PriorityDetail />, { telemetry });
    expect(detail).toContain('aging boosts · 3.0 s');
  });
});
