/**
 * MLFQ and the baselines vs a plain binary heap, side by side in one run (issue 2): 10k splits
 * queued over 100 fairness groups; one cycle = take, charge one quantum (the MLFQ's
 * updatePriority), offer back — what the executor does per quantum. The baseline is the plain
 * heap doing one pop + one push at the same size. Figures are cycles/s vs heap pop+push pairs/s;
 * ratio = value / baseline, higher is better. Bar: mlfq.cycle_vs_heap_10k ≥ 1/3 (within 3×).
 *
 * `mlfq.hot_split_vs_heap_10k` guards a pathology: one level-0 split cycling beside 10k splits
 * parked on level 4 (the same split id taken and offered over and over; see `SplitIndex`).
 */
import { FairQueue } from '../engine/core/baseline/index.ts';
import { MultilevelSplitQueue } from '../engine/core/mlfq/index.ts';
import {
  makeGroup,
  makeSplit,
  type ReadyQueue,
  type ReadySplit,
} from '../engine/core/ready-queue.ts';
import { FifoQueue } from '../engine/core/baseline/index.ts';
import { PlainBinaryHeap } from './baselines/binary-heap.ts';
import type { BenchReport } from './report.ts';

const SPLITS = 10_000;
const GROUPS = 100;
const CYCLES_PER_CALL = 5_000;
/**
 * Interleaved rounds timed in this process's CPU time, not wall time: the cores are shared, and
 * wall time would charge a contender for whatever else ran while it waited. Each contender's
 * rate is its total cycles over its total CPU time, so every phase of the run counts.
 */
const ROUNDS = 40;
const WARMUP_CALLS = 3;
/** 1–8 ms quanta (deterministic), so groups walk up the MLFQ levels during the run. */
const QUANTA = Array.from({ length: 64 }, (_, i) => 1_000_000 + ((i * 2_654_435_761) % 7_000_000));

function filledQueue(queue: ReadyQueue): ReadyQueue {
  const groups = Array.from({ length: GROUPS }, (_, g) => makeGroup(`task-${g}`));
  for (let id = 0; id < SPLITS; id++) queue.offer(makeSplit(id, groups[id % GROUPS]!));
  return queue;
}

function cycles(queue: ReadyQueue): () => void {
  let q = 0;
  return () => {
    for (let i = 0; i < CYCLES_PER_CALL; i++) {
      const split: ReadySplit = queue.take()!;
      const quantum = QUANTA[q++ & 63]!;
      split.group.scheduledNanos += quantum;
      split.scheduledNanos += quantum;
      queue.charge(split, quantum, 0);
      queue.offer(split, 0, 'requeue');
    }
  };
}

/** 10k splits of one long-running group on level 4, and one fresh split cycling on level 0. */
function hotSplit(): () => void {
  const queue = new MultilevelSplitQueue();
  const scan = makeGroup('scan');
  scan.scheduledNanos = 400 * 1_000_000_000;
  for (let id = 0; id < SPLITS; id++) queue.offer(makeSplit(id, scan), 0, 'moved');
  const hot = makeSplit(SPLITS, makeGroup('interactive'));
  queue.offer(hot);
  return () => {
    for (let i = 0; i < CYCLES_PER_CALL; i++) {
      const split = queue.take()!;
      queue.charge(split, 0, 0); // no time: the hot split stays on level 0 and keeps winning
      queue.offer(split, 0, 'requeue');
    }
  };
}

function heapPairs(): () => void {
  const heap = new PlainBinaryHeap();
  let seq = 0;
  for (let id = 0; id < SPLITS; id++) heap.push([QUANTA[id & 63]!, seq++, id]);
  return () => {
    for (let i = 0; i < CYCLES_PER_CALL; i++) {
      const top = heap.pop()!;
      heap.push([top[0] + QUANTA[seq & 63]!, seq++, top[2]]);
    }
  };
}

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function measure(contenders: Record<string, () => void>): Record<string, number> {
  const all = Object.entries(contenders);
  for (const [, fn] of all) for (let i = 0; i < WARMUP_CALLS; i++) fn(); // let the JIT settle
  const micros: Record<string, number> = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, fn] of all) {
      const start = cpuMicros();
      fn();
      micros[name] = (micros[name] ?? 0) + (cpuMicros() - start);
    }
  }
  const rates: Record<string, number> = {};
  for (const [name] of all) rates[name] = (ROUNDS * CYCLES_PER_CALL) / (micros[name]! / 1e6);
  return rates;
}

export async function run(report: BenchReport): Promise<void> {
  const rates = measure({
    heap: heapPairs(),
    mlfq: cycles(filledQueue(new MultilevelSplitQueue())),
    fifo: cycles(filledQueue(new FifoQueue())),
    fair: cycles(filledQueue(new FairQueue())),
    hot: hotSplit(),
  });
  const heap = rates['heap']!;
  report.add('mlfq.cycle_vs_heap_10k', rates['mlfq']!, 'cycles/s', heap);
  report.add('mlfq.fifo_cycle_vs_heap_10k', rates['fifo']!, 'cycles/s', heap);
  report.add('mlfq.fair_cycle_vs_heap_10k', rates['fair']!, 'cycles/s', heap);
  report.add('mlfq.hot_split_vs_heap_10k', rates['hot']!, 'cycles/s', heap);
  const ratio = rates['mlfq']! / heap;
  console.log(`  bar mlfq.cycle_vs_heap_10k ≥ 0.333: ${ratio >= 1 / 3 ? 'PASS' : 'FAIL'}`);
}
