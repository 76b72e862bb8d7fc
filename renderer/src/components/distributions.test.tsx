// The Distributions panel's empty states: no frame yet, or frames with no sample in its window.
import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { DistributionsPanel } from './distributions.tsx';

function render(telemetry: Telemetry): string {
  return renderStatic(<DistributionsPanel />, { state: { policy: 'mlfq' }, telemetry });
}

describe('the Distributions panel with nothing to draw', () => {
  it('waits for frames before the first', () => {
    expect(render(new Telemetry())).toContain('waiting for frames…');
  });

  it('says its window has no sample yet while frames arrive (after a reset, say)', () => {
    // Before: "waiting for frames…" while frames were arriving.
    const telemetry = new Telemetry();
    for (let seq = 1; seq <= 3; seq++) {
      telemetry.ingestFrame({
        ...syntheticFrame({ seq, timeMs: seq * 100 }),
        samples: {
          latency: { byClass: {}, byBand: {} },
          wait: { byClass: {}, byBand: {} },
        },
      });
    }
    const html = render(telemetry);
    expect(html).toContain('no latency samples in the tables’ window yet');
    expect(html).not.toContain('waiting for frames');
  });
});
