import { describe, expect, it } from 'vitest';
import { SimBackend } from '../../runtime/sim/index.ts';
import type { Backend, Dispatch } from '../../runtime/backend.ts';
import { TappedBackend } from './tapped-backend.ts';

const work = { kernel: 'spin' as const, totalNanos: 1_000_000 };

function recordingTap() {
  const started: number[] = [];
  return { started, tap: { started: (d: Dispatch) => started.push(d.splitId), ended: () => {} } };
}

describe('TappedBackend', () => {
  it('offers lookahead only when the inner backend has it: the sim has none', () => {
    const { tap } = recordingTap();
    const tapped = new TappedBackend(new SimBackend({ workers: 2, seed: 1 }), tap);
    expect(tapped.enqueue).toBeUndefined();
    expect(tapped.queueableWorkers).toBeUndefined();
    expect(tapped.revoke).toBeUndefined();
  });

  it('forwards a queued dispatch to the inner backend and tells the tap it started', () => {
    const calls: string[] = [];
    const sim = new SimBackend({ workers: 1, seed: 1 });
    // The sim with the three pipelining members bolted on, recording what reaches it.
    const inner: Backend = Object.assign(sim, {
      queueableWorkers: () => [0],
      enqueue: (d: Dispatch) => calls.push(`enqueue ${d.splitId}`),
      revoke: (id: number) => (calls.push(`revoke ${id}`), true),
    });
    const { started, tap } = recordingTap();
    const tapped = new TappedBackend(inner, tap);
    expect(tapped.queueableWorkers!()).toEqual([0]);
    tapped.enqueue!({ splitId: 7, workerId: 0, quantumNanos: 1e6, work, doneNanos: 0 });
    expect(tapped.revoke!(7)).toBe(true);
    expect(calls).toEqual(['enqueue 7', 'revoke 7']);
    expect(started).toEqual([7]);
  });
});
