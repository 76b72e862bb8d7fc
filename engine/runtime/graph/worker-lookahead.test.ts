import { describe, expect, it } from 'vitest';
import { WorkerLookahead } from './worker-lookahead.ts';

describe('WorkerLookahead', () => {
  it('offers the worker expected to be free first before the others', () => {
    const l = new WorkerLookahead();
    l.started(0, 300);
    l.started(1, 100);
    l.started(2, 200);
    expect(l.byExpectedEnd([0, 1, 2])).toEqual([1, 2, 0]);
  });

  it('a running quantum ending starts the queued node: its end is expected from then on', () => {
    const l = new WorkerLookahead();
    l.started(0, 100);
    l.started(1, 150);
    l.queued(0, 7);
    expect(l.ended(3, 0, 120, (v) => (v === 7 ? 50 : 0))).toBe(true);
    expect(l.byExpectedEnd([0, 1])).toEqual([1, 0]); // worker 0 now busy until 170
    expect(l.takeBack(() => true)).toBe(-1); // nothing queued any more
  });

  it('the queued node itself ending means it never ran', () => {
    const l = new WorkerLookahead();
    l.queued(1, 4);
    expect(l.ended(4, 1, 10, () => 0)).toBe(false);
    expect(l.ended(5, 1, 20, () => 0)).toBe(true);
  });

  it('takes back the first queued node the backend gives up, and only that one', () => {
    const l = new WorkerLookahead();
    l.queued(0, 8);
    l.queued(1, 9);
    const asked: number[] = [];
    expect(l.takeBack((v) => (asked.push(v), v === 9))).toBe(9);
    expect(asked).toEqual([8, 9]);
    expect(l.takeBack((v) => v === 9)).toBe(-1);
    expect(l.takeBack((v) => v === 8)).toBe(8);
  });
});
