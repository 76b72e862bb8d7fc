/**
 * PRIO queue vs the alternatives, side by side in one run (issue 2): push N random priorities,
 * then pop them all, for a plain binary heap (the baseline: no map, no tombstones, no aging),
 * `PriorityTaskQueue`, and a naive sorted array (binary-search insert + splice, pop from the end).
 * Figures are ops/s, one op = one push or one pop; ratio = value / baseline, higher is better.
 * Bars: ptq_vs_heap ≥ 0.5 (within 2× of the plain heap), ptq_vs_sorted_100k ≥ 20.
 */
import { PriorityTaskQueue } from '../engine/core/priority/index.ts';
import { PlainBinaryHeap } from './baselines/binary-heap.ts';
import { throughput, type BenchReport } from './report.ts';

/** Deterministic priorities 0..100 (xorshift32), the same for every contender. */
function priorities(n: number, seed = 0x9e3779b9): Int32Array {
  const out = new Int32Array(n);
  let x = seed | 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = (x >>> 0) % 101;
  }
  return out;
}

function heapRun(prio: Int32Array): void {
  const heap = new PlainBinaryHeap();
  for (let i = 0; i < prio.length; i++) heap.push([prio[i]!, i, i]);
  while (heap.pop() !== undefined);
}

function ptqRun(prio: Int32Array): void {
  // Aging off: the comparison is about the data structure, not the aging scan.
  const queue = new PriorityTaskQueue<number>({ aging: false, maxQueued: prio.length });
  for (let i = 0; i < prio.length; i++) queue.push(i, i, prio[i]!);
  while (queue.pop() !== null);
}

/** Sorted descending by (priority, sequence) so the most urgent is at the end: pop is O(1). */
function sortedRun(prio: Int32Array): void {
  const keys: number[] = [];
  const ids: number[] = [];
  for (let i = 0; i < prio.length; i++) {
    // Key = priority·2^32 + sequence, compared descending; a later equal key goes further left.
    const key = prio[i]! * 4294967296 + i;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid]! > key) lo = mid + 1;
      else hi = mid;
    }
    keys.splice(lo, 0, key);
    ids.splice(lo, 0, i);
  }
  while (ids.pop() !== undefined) keys.pop();
}

const SIZES = [
  { n: 1_000, label: '1k', minMs: 400, sorted: true },
  { n: 100_000, label: '100k', minMs: 1500, sorted: true },
  { n: 1_000_000, label: '1m', minMs: 3000, sorted: false },
] as const;

export async function run(report: BenchReport): Promise<void> {
  for (const { n, label, minMs, sorted } of SIZES) {
    const prio = priorities(n);
    const ops = 2 * n;
    // Interleave the contenders so machine noise (2 shared cores) hits them alike.
    let heap = 0;
    let ptq = 0;
    for (let round = 0; round < 2; round++) {
      heap += throughput(() => heapRun(prio), ops, minMs / 2);
      ptq += throughput(() => ptqRun(prio), ops, minMs / 2);
    }
    heap /= 2;
    ptq /= 2;
    report.add(`prio.heap_${label}`, heap, 'ops/s', heap);
    report.add(`prio.ptq_vs_heap_${label}`, ptq, 'ops/s', heap);
    if (sorted) {
      const arr = throughput(() => sortedRun(prio), ops, minMs / 2);
      report.add(`prio.sorted_${label}`, arr, 'ops/s', heap);
      report.add(`prio.ptq_vs_sorted_${label}`, ptq, 'ops/s', arr);
    }
  }
}
