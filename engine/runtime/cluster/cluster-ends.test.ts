// What a quantum lost with its node is charged: at most what it was granted, which is never more
// than the work it had left (README: "we never charge more than the work could have used").
import { describe, expect, it } from 'vitest';
import type { Dispatch } from '../backend.ts';
import { grantedNanos, lostEnd } from './cluster-ends.ts';

const MS = 1e6;
const dispatch = (work: Dispatch['work'], quantumMs: number, doneMs = 0): Dispatch => ({
  splitId: 1,
  workerId: 0,
  quantumNanos: quantumMs * MS,
  work,
  doneNanos: doneMs * MS,
});

describe('a lost quantum’s grant', () => {
  it('is a built-in kernel’s work left when that is shorter than the quantum', () => {
    // Before: 1,000 ms for a 100 ms split in a 1 s quantum.
    expect(grantedNanos(dispatch({ kernel: 'spin', totalNanos: 100 * MS }, 1000))).toBe(100 * MS);
    expect(grantedNanos(dispatch({ kernel: 'spin', totalNanos: 100 * MS }, 1000, 60))).toBe(
      40 * MS,
    );
    expect(grantedNanos(dispatch({ kernel: 'spin', totalNanos: 5000 * MS }, 1000))).toBe(1000 * MS);
  });

  it('is one atomic call where calls are atomic, and a module’s whole quantum', () => {
    const calls = { kernel: 'sleep' as const, totalNanos: 100 * MS, perCallNanos: 30 * MS };
    expect(grantedNanos(dispatch(calls, 10))).toBe(30 * MS);
    expect(grantedNanos(dispatch(calls, 10, 90))).toBe(10 * MS);
    const module = { kernel: { module: '/m.mjs' }, totalNanos: 0 };
    expect(grantedNanos(dispatch(module, 1000))).toBe(1000 * MS);
  });
});

describe('a lost quantum’s span', () => {
  it('is what it is charged, not the time until the loss was noticed', () => {
    // A 50 ms call lost with its node, noticed 2.8 s after it started: the Gantt drew 2.8 s and
    // the report's scheduled time (a sum of spans) counted it, beside a busy time of 50 ms.
    const calls = { kernel: 'spin' as const, totalNanos: 600 * MS, perCallNanos: 50 * MS };
    const end = lostEnd(dispatch(calls, 1000), 100 * MS, 2900 * MS, 'node n1 lost');
    expect(end.ranNanos).toBe(50 * MS);
    expect([end.startNanos, end.endNanos]).toEqual([100 * MS, 150 * MS]);
    expect(end).toMatchObject({ outcome: 'failed', errorCode: 'WORKER_LOST' });
  });
});
