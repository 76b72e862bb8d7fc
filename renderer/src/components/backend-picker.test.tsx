import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import type { CommandResult } from '../../../shared/protocol.ts';
import { backendText, switchBackend, switchNotice } from '../data/backend-switch.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { createAppStore, type AppState } from '../store/app-store.ts';
import type { ClientCommand } from '../transport/transport.ts';
import { BackendPicker } from './backend-picker.tsx';

function render(state: Partial<AppState>): string {
  return renderStatic(<BackendPicker />, { state });
}

describe('the header’s backend', () => {
  it('shows what runs now and offers the backends the host can switch to', () => {
    const html = render({ backendName: 'sim', speed: 4, backends: ['threads', 'sim', 'cluster'] });
    expect(html).toContain('data-backend="sim"');
    // The pace is said once, by its selector (the header keeps one row at 1024 px).
    expect(html).toContain('<option value="4" selected="">4×</option>');
    expect(html).not.toContain('× real time');
    expect(html).toContain('data-testid="backend-select"');
    const backends = html.slice(html.indexOf('data-testid="backend-select"'));
    const options = [...backends.matchAll(/<option value="(\w+)"/g)].map((m) => m[1]);
    expect(options).toEqual(['threads', 'sim', 'cluster']);
    // On the simulator its pace can be changed; the pace running now is among the choices.
    const speeds = html.slice(html.indexOf('data-testid="sim-speed"'), html.indexOf('</select>'));
    expect([...speeds.matchAll(/<option value="(\w+)"/g)].map((m) => m[1])).toEqual([
      '1',
      '10',
      '100',
      'max',
      '4',
    ]);
  });

  it('offers no choice where the host cannot switch', () => {
    const html = render({ backendName: 'threads', backends: [] });
    expect(html).toContain('>threads<');
    expect(html).not.toContain('backend-select');
    expect(html).not.toContain('sim-speed');
  });

  it('says when a switch waits for the old jobs to drain', () => {
    expect(backendText('threads', null, { to: 'sim', live: 3 })).toBe(
      'threads · → sim after 3 jobs',
    );
    expect(backendText('sim', 'max', null)).toBe('sim · as fast as it goes');
  });

  it('sends setBackend with the user’s choice and words the answer', async () => {
    const sent: ClientCommand[] = [];
    const transport = {
      send: (c: ClientCommand): Promise<CommandResult> => {
        sent.push(c);
        return Promise.resolve({ ok: true, backend: 'sim', mode: 'drain', draining: 7 });
      },
    };
    const r = await switchBackend(transport, 'sim', 'drain');
    expect(sent).toEqual([{ type: 'setBackend', backend: 'sim', mode: 'drain' }]);
    expect(switchNotice('sim', r)).toBe('switching to sim once 7 live jobs finish');
    expect(switchNotice('threads', { ok: true, cancelled: 12 })).toBe(
      'cancelled 12 jobs · running on threads',
    );
  });
});

describe('the store', () => {
  it('mirrors the backend by name, the backends on offer and a drain under way', () => {
    const store = createAppStore();
    const frame = syntheticFrame({ seq: 1, timeMs: 100 });
    store.getState().applySnapshot({
      type: 'snapshot',
      frame: { ...frame, backend: 'threads', backendName: 'cluster' },
      spans: frame.spans,
      events: [],
      policies: ['mlfq'],
      frameHz: 10,
      backends: ['threads', 'sim', 'cluster'],
    });
    expect(store.getState()).toMatchObject({
      backend: 'threads',
      backendName: 'cluster',
      backends: ['threads', 'sim', 'cluster'],
      backendSwitch: null,
    });
    store.getState().applyFrame({ ...frame, seq: 2, backendSwitch: { to: 'sim', live: 4 } });
    // A host that does not name its backend: its kind stands in.
    expect(store.getState()).toMatchObject({
      backendName: 'sim',
      backendSwitch: { to: 'sim', live: 4 },
    });
  });
});
