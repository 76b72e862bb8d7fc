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

describe('the Distributions panel of a client the host skipped frames for', () => {
  it('says how many frames in its window never arrived, whose samples it cannot count', () => {
    // Before: it silently counted fewer than the tables (3 of 4), which the host counts whole.
    const telemetry = new Telemetry();
    const frame = (seq: number) => ({
      ...syntheticFrame({ seq, timeMs: seq * 100 }),
      statsSinceNanos: 0,
      samples: { latency: { byClass: {}, byBand: {} }, wait: { byClass: {}, byBand: {} } },
    });
    telemetry.ingestFrame(frame(1));
    expect(render(telemetry)).not.toContain('distributions-skipped');
    telemetry.ingestFrame(frame(5), { frames: 3, spans: 0 });
    telemetry.ingestFrame(frame(7), { frames: 4, spans: 0 });
    const html = render(telemetry);
    expect(html).toContain('data-testid="distributions-skipped" data-frames="4"');
    expect(html).toContain('4 frames in this window skipped for this client');
  });
});
