// A comparison outlives the Compare view: leaving it for another tab unmounts the view, and coming
// back must show the same form, the run still going (its button off), then its result.
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../shared/config.ts';
import type { CommandResult, CompareResultWire } from '../../../shared/protocol.ts';
import { cancelCompare, runCompare } from '../data/compare-run.ts';
import { DEFAULT_FORMS } from '../data/compare-rows.ts';
import { createAppStore, type AppStore } from '../store/app-store.ts';
import { renderStatic } from '../testing.tsx';
import type { Transport } from '../transport/transport.ts';
import { CompareView } from './compare-view.tsx';

const PRESETS = ['interactive-vs-scan', 'mixed'];

const result: CompareResultWire = {
  workload: 'mixed',
  seed: 7,
  durationMs: 60_000,
  reports: ['A', 'B'].map((label) => ({
    label,
    config: DEFAULT_ENGINE_CONFIG,
    makespanMs: 60_000,
    stoppedAtMs: 60_000,
    classes: {},
    levelShares: [],
    utilization: 0.9,
    jain: 0.8,
    quanta: 100,
  })),
};

/** A host whose answer to `compare` comes when the test says; the commands it got. */
function slowHost() {
  const sent: unknown[] = [];
  let answer: (r: CommandResult) => void = () => {};
  const transport = {
    host: 'browser',
    send: (command: { type: string }) => {
      sent.push(command);
      if (command.type === 'cancelCompare') return Promise.resolve({ ok: true, cancelled: true });
      return new Promise<CommandResult>((resolve) => (answer = resolve));
    },
  } as unknown as Transport;
  return { transport, sent, answer: (r: CommandResult) => answer(r) };
}

/** The Compare view mounted afresh (as on coming back to its tab) over the store's state. */
const mount = (store: AppStore) => renderStatic(<CompareView />, { state: store.getState() });

/** The opening tag of the element with `testId`. */
function tag(html: string, testId: string): string {
  const at = html.indexOf(`data-testid="${testId}"`);
  expect(at, testId).toBeGreaterThan(0);
  return html.slice(html.lastIndexOf('<', at), html.indexOf('>', at) + 1);
}

describe('the Compare view across a tab switch', () => {
  it('keeps the form, the run going (button off) and then shows the run’s result', async () => {
    const store = createAppStore({ status: 'open', presets: PRESETS });
    const host = slowHost();
    store.getState().setCompare({
      preset: 'mixed',
      durationS: 60,
      forms: [
        { ...DEFAULT_FORMS[0]!, label: 'A' },
        { ...DEFAULT_FORMS[1]!, label: 'B' },
      ],
    });
    const running = runCompare(host.transport, store);
    expect(host.sent).toHaveLength(1);

    // Back on the tab while it runs: the same form, and no second run offered.
    let html = mount(store);
    expect(tag(html, 'compare-config-0-label')).toContain('value="A"');
    expect(tag(html, 'compare-config-1-label')).toContain('value="B"');
    expect(html).toContain('<option value="60" selected="">60 s</option>');
    expect(html).toContain('<option value="mixed" selected="">mixed</option>');
    expect(tag(html, 'compare-run')).toContain('aria-disabled="true"');
    expect(html).toContain('running…');
    // A second run while one runs is not sent.
    await runCompare(host.transport, store);
    expect(host.sent).toHaveLength(1);

    host.answer({ ok: true, ...result });
    await running;
    html = mount(store);
    expect(html).toContain('mixed · sim · seed 7 · 60 s');
    expect(html).toContain('data-testid="compare-table"');
    expect(tag(html, 'compare-run')).not.toContain('disabled');
  });

  it('keeps the engine’s refusal to show under the form', async () => {
    const store = createAppStore({ status: 'open', presets: PRESETS });
    const host = slowHost();
    const running = runCompare(host.transport, store);
    host.answer({ ok: false, error: { code: 'INVALID_ARGUMENT', message: 'no such preset' } });
    await running;
    const html = mount(store);
    expect(html).toContain('no such preset (INVALID_ARGUMENT)');
    expect(tag(html, 'compare-run')).not.toContain('disabled');
  });

  it('offers a cancel while a comparison runs, and says cancelled when the engine stopped it', async () => {
    // Before: no cancel; the user waited for every config to run.
    const store = createAppStore({ status: 'open', presets: PRESETS });
    const host = slowHost();
    expect(mount(store)).not.toContain('data-testid="compare-cancel"');
    const running = runCompare(host.transport, store);
    let html = mount(store);
    expect(tag(html, 'compare-cancel')).toContain('cancel');
    await cancelCompare(host.transport, store);
    expect(host.sent.at(-1)).toEqual({ type: 'cancelCompare' });
    host.answer({ ok: false, error: { code: 'CANCELLED', message: 'compare: cancelled' } });
    await running;
    html = mount(store);
    expect(html).toContain('data-testid="compare-cancelled"');
    expect(html).not.toContain('data-testid="compare-error"');
    expect(html).not.toContain('data-testid="compare-cancel"');
    expect(tag(html, 'compare-run')).not.toContain('aria-disabled="true"');
    // A cancel with nothing running sends nothing; the next run clears the word.
    await cancelCompare(host.transport, store);
    expect(host.sent.filter((c) => (c as { type: string }).type === 'cancelCompare')).toHaveLength(
      1,
    );
    void runCompare(host.transport, store);
    expect(mount(store)).not.toContain('data-testid="compare-cancelled"');
  });
});
