// The flat form of a quantum's end reads back as the report it came from; ends with an error or
// blocked time keep the object form. Module ids are one per module#export.
import { describe, expect, it } from 'vitest';
import { flattenReport, ModuleIds, unflattenReport } from './flat-messages.ts';
import type { QuantumReport } from './protocol.ts';

const base = { splitId: 7, startNanos: 10.5, endNanos: 99.25, workNanos: 88 } as const;

describe('flat quantum ends', () => {
  it('round-trip a result, a yielded state (even undefined), and cpu time or none', () => {
    const reports: QuantumReport[] = [
      { ...base, outcome: 'finished', result: 42n, cpuNanos: 80 },
      { ...base, outcome: 'finished', result: undefined },
      { ...base, outcome: 'yielded', state: { left: 3 } },
      { ...base, outcome: 'yielded', state: undefined, cpuNanos: 0 },
      { ...base, outcome: 'cancelled' },
    ];
    for (const r of reports) {
      const back = unflattenReport(structuredClone(flattenReport(r)!));
      expect(back).toEqual(r);
      expect('result' in back).toBe('result' in r);
      expect('state' in back).toBe('state' in r);
    }
  });

  it('leave ends with an error or blocked time to the object form', () => {
    expect(flattenReport({ ...base, outcome: 'failed', error: 'boom' })).toBeNull();
    expect(flattenReport({ ...base, outcome: 'blocked', blockedNanos: 5 })).toBeNull();
  });

  it('name a module#export by one id, whichever ref object carries it', () => {
    const ids = new ModuleIds();
    const a = ids.id({ module: 'file:///m.mjs' });
    expect(ids.id({ module: 'file:///m.mjs', exportName: 'default' })).toBe(a);
    expect(ids.id({ module: 'file:///m.mjs', exportName: 'other' })).not.toBe(a);
  });
});
