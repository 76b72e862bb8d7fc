import { renderToString } from 'react-dom/server';
import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { CommandResult } from '../../../shared/protocol.ts';
import { Ctx, type AppContext } from '../context.ts';
import { createAppStore, frameDelta, initialState, type AppState } from '../store/app-store.ts';
import type { ClientCommand, Transport } from '../transport/transport.ts';
import { TenantWeightsField } from '../views/tenant-weights-field.tsx';
import { GanttViewport } from './gantt-viewport.ts';
import { syntheticFrame } from './synthetic-frame.ts';
import { Telemetry } from './telemetry.ts';
import { applyWeights, formatWeights, parseWeights } from './tenant-weights.ts';

function fakeTransport(answer: (c: ClientCommand) => CommandResult) {
  const sent: ClientCommand[] = [];
  const transport = {
    send: (c: ClientCommand) => {
      sent.push(c);
      return Promise.resolve(answer(c));
    },
  } as unknown as Transport;
  return { sent, transport };
}

describe('tenant weights as an operator writes them', () => {
  it('reads `tenant=weight` by commas or lines, and writes them back by name', () => {
    expect(parseWeights(' gold = 3, silver=2.5\nbronze=0.5 ,')).toEqual({
      ok: true,
      weights: { gold: 3, silver: 2.5, bronze: 0.5 },
    });
    // A name may hold `=`: the weight is after the last one.
    expect(parseWeights('a=b=2')).toEqual({ ok: true, weights: { 'a=b': 2 } });
    expect(parseWeights('  ')).toEqual({ ok: true, weights: {} });
    expect(formatWeights({ silver: 2, gold: 3 })).toBe('gold=3, silver=2');
    expect(formatWeights({})).toBe('');
  });

  it('refuses what the engine would, in its words, naming the tenant', () => {
    expect(parseWeights('gold=0')).toEqual({
      ok: false,
      message: 'tenantWeights.gold must be >= 0.01',
    });
    expect(parseWeights('gold=2000')).toMatchObject({ ok: false, message: /gold must be <= 1000/ });
    expect(parseWeights('gold')).toMatchObject({ ok: false, message: /tenant=weight, not 'gold'/ });
    expect(parseWeights('=3')).toMatchObject({ ok: false });
    expect(parseWeights('gold=lots')).toMatchObject({ ok: false });
    expect(parseWeights('gold=2, gold=3')).toEqual({
      ok: false,
      message: 'tenantWeights.gold: named twice',
    });
  });

  it('sends setTenantWeights; a refusal lands under the field and sends nothing', async () => {
    const store = createAppStore();
    const { sent, transport } = fakeTransport(() => ({
      ok: true,
      weights: { gold: 3 },
      version: 4,
    }));
    expect(await applyWeights(transport, store, 'gold=3')).toEqual({ gold: 3 });
    expect(sent).toEqual([{ type: 'setTenantWeights', weights: { gold: 3 } }]);
    expect(await applyWeights(transport, store, 'gold=-1')).toBeNull();
    expect(sent).toHaveLength(1);
    expect(store.getState().fieldErrors.tenantWeights).toBe('tenantWeights.gold must be >= 0.01');
    // The engine's refusal (a read-only console) lands there too.
    const refused = fakeTransport(() => ({
      ok: false,
      error: { code: 'READ_ONLY', message: 'setTenantWeights is refused: read-only' },
    }));
    expect(await applyWeights(refused.transport, store, 'gold=2')).toBeNull();
    expect(store.getState().fieldErrors.tenantWeights).toMatch(/read-only/);
  });

  it('the store follows the version frames carry; a host without it disables the field', () => {
    const frame = { ...syntheticFrame({ seq: 1, timeMs: 100 }), tenantWeightsVersion: 2 };
    expect(frameDelta(initialState(), frame).tenantWeightsVersion).toBe(2);
    const { tenantWeightsVersion: _, ...old } = frame;
    expect(frameDelta({ ...initialState(), tenantWeightsVersion: 2 }, old)).toMatchObject({
      tenantWeightsVersion: null,
    });
    const html = (state: Partial<AppState>) => {
      const ctx: AppContext = {
        store: createAppStore(state),
        telemetry: new Telemetry(),
        transport: fakeTransport(() => ({ ok: true })).transport,
        viewport: new GanttViewport(),
      };
      return renderToString(
        createElement(Ctx.Provider, { value: ctx }, createElement(TenantWeightsField)),
      );
    };
    const none = html({ status: 'open', tenantWeightsVersion: null });
    expect(none).toContain('this host does not report tenant weights');
    expect(none).toMatch(/data-testid="field-tenantWeights"[^>]*disabled/);
    const live = html({ status: 'open', tenantWeightsVersion: 0 });
    expect(live).not.toMatch(/data-testid="field-tenantWeights"[^>]*disabled/);
    expect(live).toContain('0.01<!-- --> – <!-- -->1000');
  });
});
