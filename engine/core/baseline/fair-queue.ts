/**
 * The `fair` baseline (docs/design.md §3.3), CFS-like: the fairness group with the least virtual
 * runtime goes first (ties to the lower sequence of the groups' next splits); within a group,
 * splits take turns in arrival order, so a re-offered split goes behind its siblings. A group's
 * virtual runtime is its charged time over its weight (`FairnessGroup.weight`, CFS's load weight).
 *
 * Virtual runtime lives here, not on the group, so `group.scheduledNanos` stays the true figure.
 * A group first seen starts at its real scheduled time, raised to the queue's minimum vruntime;
 * a woken group is raised to that minimum too, and an idle group given new work keeps at most two
 * quanta of credit — time spent asleep is not credit to burn (CFS's `place_entity`). Groups with
 * nothing queued are forgotten once they outnumber the queued ones or the queue empties (past
 * `SWEEP_FLOOR` remembered), so the table stays bounded and a burst's groups do not outlive it;
 * forgetting only drops a past wake-up boost, since a returning group restarts from its real
 * scheduled time.
 */
import type {
  FairnessGroup,
  LevelStat,
  OfferReason,
  ReadyQueue,
  ReadySplit,
} from '../ready-queue.ts';
import { SplitIndex, type IndexedSplitNode } from '../mlfq/split-index.ts';
import { IndexedHeap, type HeapNode } from './indexed-heap.ts';

/** A split in its group's arrival-order list; kept and reused while the split is away. */
interface SplitNode<S> extends IndexedSplitNode {
  /** Null while idle (its split away: running, or ended; `SplitIndex.dequeued`). */
  split: S | null;
  state: GroupState<S> | null;
  prev: SplitNode<S> | null;
  next: SplitNode<S> | null;
}

interface GroupState<S> extends HeapNode {
  readonly group: FairnessGroup;
  vruntime: number;
  head: SplitNode<S> | null;
  tail: SplitNode<S> | null;
  /** Its splits taken to run and not yet back (charged, offered again or released). */
  away: number;
}

/** Below this many remembered groups, idle ones are never swept. */
const SWEEP_FLOOR = 1024;

/** Groups in the heap always have a head. */
function groupLess<S extends ReadySplit>(a: GroupState<S>, b: GroupState<S>): boolean {
  if (a.vruntime !== b.vruntime) return a.vruntime < b.vruntime;
  return a.head!.split!.sequence < b.head!.split!.sequence;
}

export class FairQueue<S extends ReadySplit = ReadySplit> implements ReadyQueue<S> {
  readonly policy = 'fair' as const;

  private readonly index = new SplitIndex<SplitNode<S>>();
  private readonly states = new Map<FairnessGroup, GroupState<S>>();
  /** Groups with at least one queued split. */
  private readonly groups = new IndexedHeap<GroupState<S>>(groupLess);
  private floor = 0;
  /** The largest quantum charged (ns): the credit's bound where the quantum is not known. */
  private largest = 0;
  private scheduledNanos = 0;
  private selections = 0;
  /**
   * Splits taken and not yet back, by id, with their group: a group whose splits run is not idle
   * (`placement`). At most the splits running or queued behind a worker.
   */
  private readonly away = new Map<number, GroupState<S>>();

  /**
   * `quantumNanos`: the dispatch quantum, what an idle group given new work may keep two of
   * (0: unknown, the largest quantum charged so far stands in).
   */
  constructor(private quantumNanos = 0) {}

  /** The dispatch quantum changed live. */
  setQuantum(quantumNanos: number): void {
    this.quantumNanos = quantumNanos;
  }

  get size(): number {
    return this.index.size;
  }

  /** Monotonic floor of the vruntimes of the groups that were chosen (CFS's `min_vruntime`). */
  get minVruntime(): number {
    return this.floor;
  }

  /** The group's virtual runtime, or undefined when this queue does not remember it. */
  vruntimeOf(group: FairnessGroup): number | undefined {
    return this.states.get(group)?.vruntime;
  }

  /** Groups this queue currently remembers (queued, running or recently idle). */
  get trackedGroups(): number {
    return this.states.size;
  }

  offer(split: S, _now?: number, reason: OfferReason = 'new'): void {
    const idle = this.index.idleNode(split.id); // throws DUPLICATE_ID when queued
    this.back(split.id);
    const state = this.stateOf(split.group);
    const least = this.placement(state, reason);
    const raised = state.vruntime < least;
    if (raised) state.vruntime = least;
    const node = idle ?? { split, state, prev: null, next: null, queued: false };
    node.split = split;
    node.state = state;
    node.prev = state.tail;
    node.next = null;
    if (state.tail === null) state.head = node;
    else state.tail.next = node;
    state.tail = node;
    this.index.enqueued(split.id, node, idle === undefined);
    if (state.heapIndex < 0) this.groups.push(state);
    else if (raised) this.groups.update(state);
  }

  take(_now?: number): S | null {
    const state = this.groups.peek();
    if (state === undefined) return null;
    const node = state.head!;
    const split = node.split!;
    this.unlink(node);
    if (state.vruntime > this.floor) this.floor = state.vruntime;
    this.selections++;
    this.away.set(split.id, state);
    state.away++;
    return split;
  }

  released(split: S): void {
    this.back(split.id);
  }

  defers(running: S, expectedNanos: number): boolean {
    const state = this.states.get(running.group);
    const next = this.groups.peek();
    if (state === undefined || next === undefined || next === state) return false;
    return state.vruntime + expectedNanos / (running.group.weight ?? 1) < next.vruntime;
  }

  /** A taken split is back (charged, offered again or released): its group counts it no more. */
  private back(id: number): void {
    const state = this.away.get(id);
    if (state === undefined) return;
    this.away.delete(id);
    state.away--;
  }

  remove(split: S): boolean {
    const node = this.index.queuedNode(split.id);
    if (node === undefined || node.split !== split) return false;
    this.unlink(node);
    return true;
  }

  /** The executor has already added the quantum to `group.scheduledNanos`. */
  charge(split: S, quantumNanos: number, _now?: number): void {
    this.back(split.id);
    this.scheduledNanos += quantumNanos;
    const known = this.states.get(split.group);
    if (known === undefined) {
      // Forgotten while running: restart from the true scheduled time, which includes this quantum.
      this.stateOf(split.group);
      return;
    }
    if (quantumNanos > this.largest) this.largest = quantumNanos;
    known.vruntime += quantumNanos / (split.group.weight ?? 1);
    if (known.heapIndex >= 0) this.groups.update(known);
  }

  tick(_now?: number): void {
    // Virtual runtime moves only when time is charged.
  }

  /** Every queued split: groups by least vruntime (ties by sequence), each in arrival order. */
  drain(): S[] {
    const queued = this.groups.clear().sort((a, b) => (groupLess(a, b) ? -1 : 1));
    const out: S[] = [];
    for (const state of queued) {
      for (let node = state.head; node !== null; node = node.next) out.push(node.split!);
      state.head = null;
      state.tail = null;
    }
    this.index.clear();
    return out;
  }

  levels(): LevelStat[] {
    return [
      {
        level: 0,
        label: 'fair',
        depth: this.index.size,
        scheduledNanos: this.scheduledNanos,
        selections: this.selections,
      },
    ];
  }

  /**
   * The least vruntime `state` may come back with (CFS's `place_entity`). A woken split's group
   * is raised to the floor. A group with nothing queued that gets a new (or retried) split keeps at
   * most two quanta of credit, as CFS lets a waking task keep part of a latency period: one that
   * sat idle for a minute came back with a minute's credit and took the workers for that long,
   * while a light tenant's call of up to two quanta still passes a backlog unbroken. A group whose
   * splits run now (taken, not yet back) is not idle and loses nothing: counted idle, a tenant of
   * weight 3 keeping two runs going on two workers lost its lead at each new run (a share of 0.5,
   * not 0.75). Two of the dispatch quantum, in the group's own vruntime (over
   * its own weight): the largest quantum charged to anyone, over that group's weight, let one
   * overrunning call or one tenant of weight 0.01 hand every returning group 98 quanta at once.
   */
  private placement(state: GroupState<S>, reason: OfferReason): number {
    if (reason === 'woken') return this.floor;
    if (state.head === null && state.away === 0 && (reason === 'new' || reason === 'retry')) {
      const quantum = this.quantumNanos > 0 ? this.quantumNanos : this.largest;
      return this.floor - (2 * quantum) / (state.group.weight ?? 1);
    }
    return -Infinity;
  }

  /** Takes a queued node out of its group's list and the group out of the heap if now empty. */
  private unlink(node: SplitNode<S>): void {
    const state = node.state!;
    if (node.prev === null) state.head = node.next;
    else node.prev.next = node.next;
    if (node.next === null) state.tail = node.prev;
    else node.next.prev = node.prev;
    node.prev = null;
    node.next = null;
    node.state = null;
    this.index.dequeued(node);
    if (state.head === null) this.groups.remove(state);
    else this.groups.update(state);
    // Emptied: a burst's groups are forgotten now, not when some new group next arrives (a
    // service whose one-off tenants have gone would otherwise keep them while its regulars run).
    if (this.index.size === 0) this.sweepIdle();
  }

  private stateOf(group: FairnessGroup): GroupState<S> {
    const known = this.states.get(group);
    if (known !== undefined) return known;
    this.sweepIdle();
    const state: GroupState<S> = {
      group,
      vruntime: Math.max(group.scheduledNanos / (group.weight ?? 1), this.floor),
      head: null,
      tail: null,
      heapIndex: -1,
      away: 0,
    };
    this.states.set(group, state);
    return state;
  }

  /**
   * Forgets groups with nothing queued or running once they dominate the table, or the queue is
   * empty (amortised O(1): each sweep drops every group it passes but the queued and running).
   */
  private sweepIdle(): void {
    if (this.states.size < SWEEP_FLOOR || this.states.size < 2 * this.groups.size) return;
    for (const [group, state] of this.states) {
      if (state.head === null && state.away === 0) this.states.delete(group);
    }
  }
}
