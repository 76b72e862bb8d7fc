// The tenants panel: one row per tenant the frame names, the count of those it does not, and
// nothing at all for an engine that holds no tenant.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Frame, TenantRow } from '../../../shared/protocol.ts';
import { Ctx, type AppContext } from '../context.ts';
import { GanttViewport } from '../data/gantt-viewport.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { createAppStore } from '../store/app-store.ts';
import type { Transport } from '../transport/transport.ts';
import { TenantsPanel } from './tenants-panel.tsx';

function render(tenants?: Frame['tenants'], tenantsMore?: number): string {
  const telemetry = new Telemetry();
  telemetry.ingestFrame(
    syntheticFrame({
      seq: 1,
      timeMs: 1000,
      config: { maxLivePerTenant: 3 },
      ...(tenants === undefined ? {} : { tenants, tenantsMore: tenantsMore ?? 0 }),
    }),
  );
  const ctx: AppContext = {
    store: createAppStore(),
    telemetry,
    transport: {} as Transport,
    viewport: new GanttViewport(),
  };
  return renderToString(
    <Ctx.Provider value={ctx}>
      <TenantsPanel />
    </Ctx.Provider>,
  );
}

const tenant = (name: string, o: Partial<TenantRow> = {}): TenantRow => ({
  name,
  scheduledNanos: 0,
  liveJobs: 0,
  rejectedJobs: 0,
  weight: 1,
  ...o,
});

describe('the tenants panel', () => {
  it('shows each tenant with its live jobs, scheduled time, rejections and weight', () => {
    const html = render(
      [
        tenant('acme', { liveJobs: 3, rejectedJobs: 12, scheduledNanos: 2_500_000_000 }),
        tenant('globex', { liveJobs: 1, scheduledNanos: 40_000_000, weight: 2 }),
      ],
      5,
    );
    expect(html).toContain('7 tenants · 5 more not shown · bound 3 live jobs');
    expect(html).toMatch(/data-tenant="acme" data-live="3" data-rejected="12"/);
    expect(html).toMatch(/data-tenant="globex" data-live="1" data-rejected="0"/);
    expect(html).toMatch(/data-tenant="globex"[^>]*data-weight="2"/);
    // Rejections are marked: a tenant at its bound is what the operator looks for.
    expect(html).toMatch(/class="num warn">12</);
  });

  it('is absent while the engine holds no tenant', () => {
    expect(render()).toBe('');
    expect(render([])).toBe('');
  });
});
