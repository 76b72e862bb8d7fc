/**
 * One worker's scheduling loop in a work-stealing run (docs/design.md §3.4). Runs in a worker thread
 * over the shared memory of `layout.ts`:
 *
 * - Take the newest node of the private stack, else of the own deque; run it; for each successor
 *   decrement its dependency counter (Atomics; skipped when the in-degree is 1) — the first
 *   successor that becomes ready runs next in place, the others go onto the private stack
 *   (private-stack.ts), or onto the own deque while a peer is hungry (`CTL_HUNGRY`) or a helper is
 *   still to be woken; a hungry peer also makes the worker spill its private stack to the deque.
 * - Own deque empty: claim a chunk of the graph's roots (one shared cursor; each claim takes a
 *   fraction of what is left, so the chunks shrink towards the end and the workers finish the
 *   roots together) onto the own deque, where thieves can still take them; the chunk's trivial
 *   roots (no successors, no cost) run straight from the claim.
 * - Work another worker could take (roots left, nodes pushed): ask the park block to wake a
 *   helper (`share`, park.ts), until none is left to wake.
 * - No roots left: publish the completed count, then steal — last successful victim first,
 *   then random victims — and after a short spin sleep on the epoch word; hungry (counted in
 *   `CTL_HUNGRY`) from the first round that found nothing until work is found or the run ends.
 * - No lost wake-ups: a sleeper reads the epoch, registers in `sleepers`, re-checks every deque,
 *   then waits only while the epoch is unchanged; a pusher that sees sleepers bumps the epoch
 *   before notifying. With sequentially consistent Atomics one of the two always sees the other.
 * - Termination: the worker whose published count takes `remaining` to 0 sets `done` and wakes all.
 *
 * Error modes: a node whose kernel throws on its last attempt fails. `fail-fast` sets `stop`; every
 * node reached afterwards is marked cancelled without running (so the counters still drain and the
 * run ends). `continue` poisons the successors; a poisoned node is skipped when it becomes ready and
 * poisons its own successors.
 */
import { nanosSince } from '../threads/clock.ts';
import { CANCELLED, FAILED, SKIPPED, SUCCEEDED } from '../../core/graph/node-state.ts';
import { ABORT, EMPTY, WorkDeque, ringCapacity } from './deque.ts';
import type { KernelContext, StealingKernel } from './kernels.ts';
import { PrivateStack } from './private-stack.ts';
import {
  CTL_CLOCK,
  CTL_DONE,
  CTL_EPOCH,
  CTL_FAILED_NODE,
  CTL_HUNGRY,
  CTL_REMAINING,
  CTL_ROOTS,
  CTL_SLEEPERS,
  CTL_STOP,
  SPANS_PER_WORKER,
  type RunViews,
} from './layout.ts';

export interface LoopOptions {
  readonly workerId: number;
  readonly workers: number;
  readonly failFast: boolean;
  readonly verify: boolean;
  /** Kernel per kernel-table index. */
  readonly kernels: readonly StealingKernel[];
  readonly seed: number;
  /** Record one span every this many processed nodes (0 = none). */
  readonly sampleEvery: number;
  /** The run's time origin (`threads/clock.ts`): every time below is integer ns since it. */
  readonly origin: bigint;
  /**
   * Called when this worker has work another could take (roots left, nodes pushed): wakes a
   * helper that is waiting to be asked (park.ts `share`); returns false once none is left.
   */
  readonly share?: () => boolean;
}

export interface LoopStats {
  readonly workerId: number;
  readonly executed: number;
  readonly attempts: number;
  readonly steals: number;
  readonly stealAttempts: number;
  readonly sleeps: number;
  /**
   * Time spent finding work after a first round of steals found none (spinning, sleeping and the
   * later rounds). A steal that succeeds at once is not timed: two clock reads cost more than it.
   */
  readonly idleNanos: number;
  /** Spans sampled (the ring keeps the last SPANS_PER_WORKER). */
  readonly spansWritten: number;
  /**
   * When the loop started and ended, in integer ns since the run's origin: the monotonic clock
   * every thread of the process reads alike, so workers' times compare directly.
   */
  readonly startNanos: number;
  readonly endNanos: number;
}

/** Steal rounds before a worker goes to sleep. */
const SPIN_ROUNDS = 64;
/** A root claim takes 1 / (ROOT_SHARE · workers) of the roots left, at most ROOT_CHUNK. */
const ROOT_SHARE = 2;
const ROOT_CHUNK = 4096;

export function runWorkerLoop(v: RunViews, o: LoopOptions): LoopStats {
  // One read of the shared clock per run, then `performance.now()` (the same monotonic clock,
  // about half the cost of a BigInt read; a small graph samples every node, two reads each).
  const startNanos = nanosSince(o.origin);
  const perfStart = performance.now();
  const now = (): number => startNanos + Math.round((performance.now() - perfStart) * 1e6);
  const {
    ctl,
    successorStart,
    successors,
    inDegree,
    counters,
    states,
    poisoned,
    costNanos,
    retries,
    kernelOf,
    roots,
  } = v;
  const capacity = ringCapacity(states.length);
  const deques = Array.from(
    { length: o.workers },
    (_, w) => new WorkDeque(v.dequeMeta, v.dequeRing, w, w * capacity, capacity),
  );
  const own = deques[o.workerId]!;
  const mine = new PrivateStack(states.length);
  const ctx: KernelContext = {
    results: v.results,
    stopped: () => Atomics.load(ctl, CTL_STOP) !== 0,
  };
  let random = o.seed | 1;
  let lastVictim = -1;
  let completed = 0;
  let executed = 0;
  let attempts = 0;
  let steals = 0;
  let stealAttempts = 0;
  let sleeps = 0;
  let idleNanos = 0;
  // The options read on every node, as locals (a property load each otherwise).
  const { verify, failFast, kernels, sampleEvery } = o;
  let untilSample = sampleEvery;
  let sharing = o.share !== undefined;
  const share = (): void => {
    if (sharing) sharing = o.share!();
  };
  let spansWritten = 0;
  const spanBase = o.workerId * SPANS_PER_WORKER;
  /**
   * When the last node this worker processed was sampled and it took the next one straight
   * after (in place or from its own deque), that span's end: the next span starts there, so
   * sampling every node costs one clock read a node, not two. -1 otherwise.
   */
  let boundary = -1;

  /** Runs node `node` (or skips/cancels it); releases successors; returns one to run in place. */
  const process = (node: number): number => {
    let outcome = SUCCEEDED;
    const executedBefore = executed;
    const sampled = untilSample > 0 && --untilSample === 0;
    // The last span's end is this one's start only when that node alone released this one: a
    // node with several predecessors may have been released here after another worker's
    // predecessor ended later than that, so its start is read now.
    const spanStart = sampled ? (boundary >= 0 && inDegree[node]! <= 1 ? boundary : now()) : 0;
    boundary = -1;
    if (verify) {
      Atomics.add(v.runCount, node, 1);
      v.startStamp[node] = Atomics.add(ctl, CTL_CLOCK, 1);
    }
    // Plain reads, not Atomics.load (which cost about 4 ns each here, a third of a tiny node):
    // `poisoned[node]` was written before the counter decrement or deque push that made the node
    // ready, which this thread's own atomics then saw, so the read is ordered; `stop` is a flag
    // another thread may set at any time, read afresh on every node (a plain read is never cached
    // across the kernel call), so a fail-fast stop or cancel is seen within a node or so.
    if (ctl[CTL_STOP] !== 0) outcome = CANCELLED;
    else if (poisoned[node] !== 0) outcome = SKIPPED;
    else {
      const kernel = kernels[kernelOf[node]!]!;
      // Only a node with a cost is timed (two clock reads would dominate a tiny node): its
      // measured time feeds the report's measured critical path (stealing-report.ts).
      const cost = costNanos[node]!;
      const timedFrom = cost > 0 ? performance.now() : 0;
      for (let attempt = 0; ; attempt++) {
        attempts++;
        try {
          if (!kernel(node, costNanos[node]!, ctx)) outcome = CANCELLED;
          break;
        } catch {
          if (attempt >= retries[node]! || ctx.stopped()) {
            outcome = FAILED;
            break;
          }
        }
      }
      if (cost > 0) v.ranNanos[node] = Math.round((performance.now() - timedFrom) * 1e6); // integer ns, as everywhere in the engine
      executed++;
    }
    states[node] = outcome;
    if (verify) v.finishStamp[node] = Atomics.add(ctl, CTL_CLOCK, 1);
    // A span is the time the node ran: it ends before its successors are released (a thief may
    // start one at once, and the trace must not show it starting before its predecessor ended),
    // and a node that never ran (skipped, or stopped before its kernel) has none.
    const ran = executed !== executedBefore;
    if (sampled && ran) {
      const i = spanBase + (spansWritten++ % SPANS_PER_WORKER);
      v.spanNode[i] = node;
      v.spanOutcome[i] = outcome;
      v.spanStart[i] = spanStart;
      v.spanEnd[i] = boundary = now();
    }
    if (sampled) untilSample = sampleEvery;
    completed++;
    const poison = outcome === FAILED || outcome === SKIPPED;
    if (outcome === FAILED && failFast) {
      Atomics.compareExchange(ctl, CTL_FAILED_NODE, -1, node);
      Atomics.store(ctl, CTL_STOP, 1);
    }
    let next = -1;
    let pushed = 0;
    // A plain read, as `stop` above: a peer's hunger is seen within a node or so.
    const shared = sharing || ctl[CTL_HUNGRY] !== 0;
    for (let k = successorStart[node]!, end = successorStart[node + 1]!; k < end; k++) {
      const s = successors[k]!;
      if (poison) Atomics.store(poisoned, s, 1);
      if (inDegree[s] === 1 || Atomics.sub(counters, s, 1) === 1) {
        if (next < 0) next = s;
        else if (!shared) mine.push(s);
        else {
          own.push(s);
          pushed++;
        }
      }
    }
    if (shared && mine.size > 0) pushed += mine.spillTo(own);
    if (pushed > 0) {
      if (sharing) share();
      if (Atomics.load(ctl, CTL_SLEEPERS) > 0) {
        Atomics.add(ctl, CTL_EPOCH, 1);
        Atomics.notify(ctl, CTL_EPOCH, pushed);
      }
    }
    return next;
  };

  const nextRandom = (): number => {
    random ^= random << 13;
    random ^= random >>> 17;
    random ^= random << 5;
    return random >>> 0;
  };

  const trySteal = (victim: number): number => {
    for (;;) {
      stealAttempts++;
      const node = deques[victim]!.steal();
      if (node !== ABORT) return node;
    }
  };

  /**
   * A root without successors or cost: running it releases nothing and takes next to no time, so
   * a thief gains nothing by taking it from the own deque. A chunk's trivial roots run straight
   * from the claim (an independent graph's nodes cost a deque pop each otherwise, about as much
   * as the node itself); the others go onto the own deque as before.
   */
  const trivial = (root: number): boolean =>
    successorStart[root] === successorStart[root + 1] && costNanos[root] === 0;

  /**
   * Claims chunks of roots and returns one to run, or EMPTY when every root is claimed. A chunk's
   * other roots go onto the own deque, where thieves can still take them, and its trivial roots
   * (`trivial`) run here. One compare-and-swap a chunk, where stealing the roots one by one from
   * the deque they were seeded on cost a contended steal per root.
   */
  const claimRoots = (): number => {
    for (;;) {
      const from = Atomics.load(ctl, CTL_ROOTS);
      const left = roots.length - from;
      if (left <= 0) return EMPTY;
      const take = Math.min(ROOT_CHUNK, Math.ceil(left / (ROOT_SHARE * o.workers)));
      if (Atomics.compareExchange(ctl, CTL_ROOTS, from, from + take) !== from) continue;
      const to = from + take;
      // Leading non-trivial roots (a structured graph's usual chunk) go in one push.
      let end = from;
      while (end < to && !trivial(roots[end]!)) end++;
      let first = end > from ? roots[from]! : -1;
      if (end > from + 1) own.pushRange(roots, from + 1, end);
      let pushed = Math.max(0, end - from - 1);
      let trivials = 0;
      for (let i = end; i < to; i++) {
        const root = roots[i]!;
        if (trivial(root)) trivials++;
        else if (first < 0) first = root;
        else (own.push(root), pushed++);
      }
      if (pushed > 0 && Atomics.load(ctl, CTL_SLEEPERS) > 0) {
        Atomics.add(ctl, CTL_EPOCH, 1);
        Atomics.notify(ctl, CTL_EPOCH, pushed);
      }
      if (sharing && (pushed > 0 || to < roots.length)) share();
      if (trivials > 0)
        for (let i = end; i < to; i++) {
          const root = roots[i]!;
          if (trivial(root)) process(root);
        }
      if (first >= 0) return first;
    }
  };

  // Every root is claimed by now (the loop claims before it looks for work elsewhere).
  const anyWork = (): boolean => deques.some((d) => d.size > 0);
  const isDone = (): boolean => Atomics.load(ctl, CTL_DONE) !== 0;

  /** Steals, spins, sleeps; returns a node or -1 when the run is done. */
  const findWork = (): number => {
    let idleFrom = -1;
    const found = (node: number): number => {
      if (idleFrom >= 0) {
        idleNanos += now() - idleFrom;
        Atomics.sub(ctl, CTL_HUNGRY, 1);
      }
      return node;
    };
    for (let round = 0; ; round++) {
      if (isDone()) return found(-1);
      if (lastVictim >= 0) {
        const node = trySteal(lastVictim);
        if (node !== EMPTY) return (steals++, found(node));
      }
      for (let k = 0; k < 2 * o.workers; k++) {
        const victim = o.workers === 1 ? 0 : nextRandom() % o.workers;
        if (victim === o.workerId) continue;
        const node = trySteal(victim);
        if (node !== EMPTY) {
          lastVictim = victim;
          return (steals++, found(node));
        }
      }
      if (idleFrom < 0) {
        idleFrom = now();
        Atomics.add(ctl, CTL_HUNGRY, 1);
      }
      if (round < SPIN_ROUNDS) continue;
      const epoch = Atomics.load(ctl, CTL_EPOCH);
      Atomics.add(ctl, CTL_SLEEPERS, 1);
      if (!anyWork() && !isDone()) {
        sleeps++;
        Atomics.wait(ctl, CTL_EPOCH, epoch);
      }
      Atomics.sub(ctl, CTL_SLEEPERS, 1);
      round = 0;
    }
  };

  for (;;) {
    let node = mine.pop();
    if (node === EMPTY) node = own.pop();
    if (node === EMPTY) node = claimRoots();
    if (node === EMPTY) {
      boundary = -1; // idle until the next node: its span starts when it is found
      if (completed > 0) {
        if (Atomics.sub(ctl, CTL_REMAINING, completed) === completed) {
          Atomics.store(ctl, CTL_DONE, 1);
          Atomics.add(ctl, CTL_EPOCH, 1);
          Atomics.notify(ctl, CTL_EPOCH);
        }
        completed = 0;
      }
      node = findWork();
      if (node < 0) break;
    }
    while (node >= 0) node = process(node);
  }

  return {
    workerId: o.workerId,
    executed,
    attempts,
    steals,
    stealAttempts,
    sleeps,
    idleNanos,
    spansWritten,
    startNanos,
    endNanos: now(),
  };
}
