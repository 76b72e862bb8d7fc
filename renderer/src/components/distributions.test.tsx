// The Distributions panel's empty states: no frame yet, or frames with no sample in its window.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Ctx, type AppContext } from '../context.ts';
import { GanttViewport } from '../data/gantt-viewport.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { createAppStore } from '../store/app-store.ts';
import type { Transport } from '../transport/transport.ts';
import { DistributionsPanel } from './distributions.tsx';

function render(telemetry: Telemetry): string {
  const ctx: AppContext = {
    store: createAppStore({ policy: 'mlfq' }),
    telemetry,
    transport: { host: 'bench' } as unknown as Transport,
    viewport: new GanttViewport(),
  };
  return renderToString(
    <Ctx.Provider value={ctx}>
      <DistributionsPanel />
    </Ctx.Provider>,
  ).replace(/<!-- -->/g, '');
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
