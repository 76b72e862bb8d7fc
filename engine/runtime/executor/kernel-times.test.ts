import { describe, expect, it } from 'vitest';
import { KernelTimes } from './kernel-times.ts';

const Q = 10_000_000;

describe('KernelTimes', () => {
  it('knows nothing of a kernel before its first quantum, then its time', () => {
    const t = new KernelTimes();
    const ref = { module: 'file:///m.mjs' };
    expect(t.get(ref)).toBeUndefined();
    expect(t.get('spin')).toBeUndefined();
    t.note(ref, 3_000, Q);
    t.note('spin', Q, Q);
    expect(t.get(ref)).toBe(3_000);
    expect(t.get({ module: 'file:///m.mjs' })).toBeUndefined(); // by identity: another ref object
    expect(t.get('spin')).toBe(Q);
  });

  it('a quantum that used its whole quantum counts at once; shorter ones move it an eighth', () => {
    const t = new KernelTimes();
    t.note('hash', 8_000, Q);
    t.note('hash', 808_000, Q); // a slow quantum (descheduled thread): an eighth of the gap
    expect(t.get('hash')).toBe(108_000);
    t.note('hash', Q, Q); // long work: batching stops for this kernel at once
    expect(t.get('hash')).toBe(Q);
    t.note('hash', 2_000, Q);
    expect(t.get('hash')).toBeCloseTo(Q + (2_000 - Q) / 8);
  });
});
