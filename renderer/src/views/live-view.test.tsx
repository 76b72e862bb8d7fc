import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PolicyName } from '../../../shared/config.ts';
import { Ctx, type AppContext } from '../context.ts';
import { GanttViewport } from '../data/gantt-viewport.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { createAppStore } from '../store/app-store.ts';
import type { Transport } from '../transport/transport.ts';
import { LiveView } from './live-view.tsx';

/** The Live view rendered once (server-side) over one frame of `policy`. */
function render(policy: PolicyName): string {
  const telemetry = new Telemetry();
  const frame = syntheticFrame({ seq: 1, timeMs: 1000, config: { policy } });
  telemetry.ingestFrame(frame);
  // Server rendering reads a zustand store's initial state: give it the frame's.
  const store = createAppStore({ policy, config: frame.config, workerCount: 4 });
  const transport = { host: 'bench' } as unknown as Transport;
  const ctx: AppContext = { store, telemetry, transport, viewport: new GanttViewport() };
  return renderToString(
    <Ctx.Provider value={ctx}>
      <LiveView />
    </Ctx.Provider>,
  );
}

describe('the Live view', () => {
  it('gives its main panels stable test ids', () => {
    const html = render('mlfq');
    for (const id of [
      'gantt',
      'share',
      'depth',
      'selections',
      'latency',
      'wait',
      'counters',
      'alarms',
    ]) {
      expect(html).toContain(`data-testid="${id}"`);
    }
  });

  it.each([
    ['mlfq', 'level', 'Charged time per level'],
    ['priority', 'priority band', 'Charged time per priority band'],
    ['fair', 'task', 'Service share per task'],
    ['fifo', 'queue', 'Queue age'],
  ] as const)('under %s the share panel counts in its own unit (%s)', (policy, unit, title) => {
    const html = render(policy);
    expect(html).toContain(`data-unit="${unit}"`);
    expect(html).toContain(title);
  });
});
