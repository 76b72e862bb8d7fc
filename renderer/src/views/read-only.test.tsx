// An app attached to a service's read-only console (`Snapshot.readOnly`) says so in its header
// and offers no control that acts: every knob, the pause button and the workload inputs are off,
// with the reason in the knobs' help. Attached with `allowControl`, the same views take commands.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PresetInfo } from '../../../shared/protocol.ts';
import { App } from '../app.tsx';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { createAppStore, type AppState, type ViewName } from '../store/app-store.ts';
import { renderStatic } from '../testing.tsx';

/**
 * The app on `view`, connected to a host that is read-only or not (state as a snapshot sets it),
 * offering `presets` (a service's console offers none).
 */
function render(view: ViewName, readOnly: boolean, presets: PresetInfo[] = []): string {
  const frame = syntheticFrame({ seq: 1, timeMs: 1000, config: { policy: 'fair' } });
  const store = createAppStore({ status: 'open' });
  store.getState().applySnapshot({
    type: 'snapshot',
    frame,
    spans: { count: 0 } as never,
    events: [],
    policies: ['mlfq', 'priority', 'fifo', 'fair'],
    frameHz: 10,
    presets,
    ...(readOnly ? { readOnly } : {}),
  });
  const state: Partial<AppState> = { ...store.getState(), view };
  return renderStatic(<App />, { state });
}

const REASON = 'read-only: the service’s console takes no changes (allowControl is off)';

/** The opening tag of the element with `testId`. */
function tag(html: string, testId: string): string {
  const at = html.indexOf(`data-testid="${testId}"`);
  expect(at, testId).toBeGreaterThan(0);
  return html.slice(html.lastIndexOf('<', at), html.indexOf('>', at) + 1);
}

describe('an app attached read-only', () => {
  // The job table sizes itself to the window; server rendering has none.
  beforeAll(() => vi.stubGlobal('window', { innerHeight: 900 }));
  afterAll(() => vi.unstubAllGlobals());

  it('says read-only and disables the knobs, with the reason', () => {
    const html = render('controls', true);
    expect(html).toContain('data-testid="read-only"');
    for (const knob of ['field-policy', 'field-quantumMs', 'field-levelTimeMultiplier']) {
      expect(tag(html, knob)).toContain('disabled=""');
    }
    expect(tag(html, 'pause-toggle')).toContain('disabled=""');
    expect(html).toContain('read-only: the service’s console takes no changes');
  });

  it('disables the workload inputs (presets, file, job submission) as one', () => {
    expect(tag(render('workloads', true), 'workload-inputs')).toContain('disabled=""');
  });

  it('says why on every control it disables: pause, reset, run comparison (they said nothing)', () => {
    const live = render('live', true);
    expect(tag(live, 'pause-toggle')).toContain(`title="${REASON}"`);
    expect(tag(live, 'reset-stats')).toContain('disabled=""');
    expect(tag(live, 'reset-stats')).toContain(`title="${REASON}"`);
    const compare = tag(render('compare', true), 'compare-run');
    expect(compare).toContain('disabled=""');
    expect(compare).toContain(`title="${REASON}"`);
  });

  it('says why on the disabled workload panel, in a line of text', () => {
    const html = render('workloads', true);
    expect(html).toContain(`data-testid="workloads-read-only">${REASON}</p>`);
    expect(html.indexOf('data-testid="workloads-read-only"')).toBeGreaterThan(
      html.indexOf('data-testid="workload-inputs"'),
    );
  });

  it('lists the host’s presets, each saying why it does not start; none: says so', () => {
    const presets = [{ name: 'trino-mixed', graph: false }];
    const preset = tag(render('workloads', true, presets), 'preset-trino-mixed');
    expect(preset).toContain(`title="${REASON}"`);
    // A service's console offers no presets: an empty panel said nothing.
    const none = render('workloads', true);
    expect(none).toContain('data-testid="presets-none"');
    expect(none).toContain('This host offers no presets');
  });

  it('takes commands when the host does', () => {
    const html = render('controls', false);
    expect(html).not.toContain('data-testid="read-only"');
    for (const knob of ['field-policy', 'field-quantumMs', 'pause-toggle']) {
      expect(tag(html, knob)).not.toContain('disabled');
    }
    expect(tag(render('workloads', false), 'workload-inputs')).not.toContain('disabled');
    expect(tag(html, 'pause-toggle')).toContain('title="space"');
    expect(render('workloads', false)).not.toContain('workloads-read-only');
  });
});
