import { describe, expect, it } from 'vitest';
import type { TenantWeights } from '../../../shared/protocol.ts';
import { intermediates, oneTaskJob, spin } from '../../runtime/executor/testing.ts';
import { Session } from './session.ts';

function fairSession() {
  return new Session({ config: { workers: 1, quantumMs: 10, policy: 'fair', fairness: 'query' } });
}

function flood(s: Session, tenants: string[]): void {
  for (const tenant of tenants) {
    for (let i = 0; i < 20; i++) {
      s.executor.submitJob(oneTaskJob('x', intermediates(1, spin(100)), { tenant }));
    }
  }
}

describe('tenant weights as protocol commands', () => {
  it('setTenantWeights shares the worker 3 to 1; frames say the weights changed, and when', async () => {
    const s = fairSession();
    expect(s.advance(100).at(-1)!.tenantWeightsVersion).toBe(0);
    const set = await s.handleCommand({ type: 'setTenantWeights', id: 3, weights: { gold: 3 } });
    expect(set).toMatchObject({ ok: true, id: 3, weights: { gold: 3 }, version: 1 });
    flood(s, ['gold', 'free']);
    const frames = s.advance(1000);
    expect(frames.at(-1)!.tenantWeightsVersion).toBe(1);
    const marker = frames.flatMap((f) => f.events).find((e) => e.kind === 'weights');
    expect(marker?.detail).toBe('gold ×3; others 1');
    const groups = frames.at(-1)!.fairGroups!.groups;
    const service = Object.fromEntries(groups.map((g) => [g.label, g.serviceNanos]));
    expect(service.gold! / service.free!).toBeCloseTo(3, 1);
    expect(groups.find((g) => g.label === 'gold')!.weight).toBe(3);

    // Read back; an empty set puts every tenant back to 1.
    const read = await s.handleCommand({ type: 'tenantWeights' });
    expect(read).toMatchObject({ ok: true, weights: { gold: 3 }, version: 1 });
    const reset = await s.handleCommand({ type: 'setTenantWeights', weights: {} });
    expect(reset as unknown as TenantWeights).toMatchObject({ weights: {}, version: 2 });
    expect(
      s
        .advance(100)
        .flatMap((f) => f.events)
        .map((e) => e.detail),
    ).toContain('all tenants 1');
    await s.close();
  });

  it('refuses a weight out of range or a bad name, naming it, and changes nothing', async () => {
    const s = fairSession();
    await s.handleCommand({ type: 'setTenantWeights', weights: { gold: 3 } });
    const low = await s.handleCommand({ type: 'setTenantWeights', weights: { gold: 0 } });
    expect(low).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE', field: 'weights.gold' } });
    expect(low.ok === false && low.error.message).toMatch(/>= 0\.01/);
    const big = await s.handleCommand({ type: 'setTenantWeights', weights: { gold: 5000 } });
    expect(big).toMatchObject({ ok: false, error: { field: 'weights.gold' } });
    const name = await s.handleCommand({ type: 'setTenantWeights', weights: { '': 2 } });
    expect(name).toMatchObject({ ok: false, error: { field: 'weights' } });
    expect(await s.handleCommand({ type: 'tenantWeights' })).toMatchObject({
      weights: { gold: 3 },
      version: 1,
    });
    expect(s.advance(10).at(-1)!.tenantWeightsVersion).toBe(1);
    await s.close();
  });

  it('takes weights for 10,000 tenants and refuses 10,001, naming the limit', async () => {
    const s = fairSession();
    const many = (n: number) =>
      Object.fromEntries(Array.from({ length: n }, (_, i) => [`t${i}`, 2]));
    const ok = await s.handleCommand({ type: 'setTenantWeights', weights: many(10_000) });
    expect(ok.ok).toBe(true);
    const over = await s.handleCommand({ type: 'setTenantWeights', weights: many(10_001) });
    expect(over).toMatchObject({ ok: false, error: { code: 'BAD_MESSAGE', field: 'weights' } });
    expect(over.ok === false && over.error.message).toMatch(/at most 10000 tenants/);
    expect(Object.keys(s.executor.tenantWeights)).toHaveLength(10_000);
    await s.close();
  });

  it('names the first few tenants on the timeline and counts the rest', async () => {
    const s = fairSession();
    const weights = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`t${i}`, i + 2]));
    await s.handleCommand({ type: 'setTenantWeights', weights });
    const detail = s
      .advance(100)
      .flatMap((f) => f.events)
      .find((e) => e.kind === 'weights')!.detail;
    expect(detail).toBe('t0 ×2, t1 ×3, t2 ×4, t3 ×5, t4 ×6 and 3 more; others 1');
    await s.close();
  });
});
