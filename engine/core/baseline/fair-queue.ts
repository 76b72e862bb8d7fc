/**
 * The `fair` baseline (DESIGN.md §3.3), CFS-like: the fairness group with the least virtual
 * runtime goes first (ties to the lower split sequence), and within a group the lowest sequence.
 *
 * Virtual runtime lives here, not on the group, so `group.scheduledNanos` stays the true figure.
 * A group first seen starts at its real scheduled time, raised to the queue's minimum vruntime;
 * a woken group is raised to that minimum too — time spent asleep is not credit to burn
 * (CFS's `place_entity`). Groups with nothing queued are forgotten once they outnumber the
 * queued ones, so the table stays bounded; forgetting only drops a past wake-up boost, since a
 * returning group restarts from its real scheduled time.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type {
  FairnessGroup,
  LevelStat,
  OfferReason,
  ReadyQueue,
  ReadySplit,
} from '../ready-queue.ts';
import { IndexedHeap, type HeapNode } from '../mlfq/indexed-heap.ts';

interface SplitNode<S> extends HeapNode {
  readonly split: S;
  readonly state: GroupState<S>;
}

interface GroupState<S> extends HeapNode {
  readonly group: FairnessGroup;
  vruntime: number;
  /** This group's queued splits, lowest sequence first. */
  readonly splits: IndexedHeap<SplitNode<S>>;
}

/** Below this many remembered groups, idle ones are never swept. */
const SWEEP_FLOOR = 1024;

function splitLess<S extends ReadySplit>(a: SplitNode<S>, b: SplitNode<S>): boolean {
  return a.split.sequence < b.split.sequence;
}

function groupLess<S extends ReadySplit>(a: GroupState<S>, b: GroupState<S>): boolean {
  if (a.vruntime !== b.vruntime) return a.vruntime < b.vruntime;
  return a.splits.peek()!.split.sequence < b.splits.peek()!.split.sequence;
}

export class FairQueue<S extends ReadySplit = ReadySplit> implements ReadyQueue<S> {
  readonly policy = 'fair' as const;

  private readonly nodes = new Map<number, SplitNode<S>>();
  private readonly states = new Map<FairnessGroup, GroupState<S>>();
  /** Groups with at least one queued split. */
  private readonly groups = new IndexedHeap<GroupState<S>>(groupLess);
  private floor = 0;
  private scheduledNanos = 0;
  private selections = 0;

  get size(): number {
    return this.nodes.size;
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
    if (this.nodes.has(split.id)) {
      throw new SchedLabError('DUPLICATE_ID', `split ${split.id} is already queued`, 'split.id');
    }
    const state = this.stateOf(split.group);
    if (reason === 'woken' && state.vruntime < this.floor) state.vruntime = this.floor;
    const node: SplitNode<S> = { split, state, heapIndex: -1 };
    state.splits.push(node);
    this.nodes.set(split.id, node);
    if (state.heapIndex < 0) this.groups.push(state);
    else this.groups.update(state);
  }

  take(_now?: number): S | null {
    const state = this.groups.peek();
    if (state === undefined) return null;
    const node = state.splits.pop()!;
    this.nodes.delete(node.split.id);
    if (state.vruntime > this.floor) this.floor = state.vruntime;
    if (state.splits.size === 0) this.groups.remove(state);
    else this.groups.update(state);
    this.selections++;
    return node.split;
  }

  remove(split: S): boolean {
    const node = this.nodes.get(split.id);
    if (node === undefined || node.split !== split) return false;
    this.nodes.delete(split.id);
    const state = node.state;
    state.splits.remove(node);
    if (state.splits.size === 0) this.groups.remove(state);
    else this.groups.update(state);
    return true;
  }

  /** The executor has already added the quantum to `group.scheduledNanos`. */
  charge(split: S, quantumNanos: number, _now?: number): void {
    this.scheduledNanos += quantumNanos;
    const known = this.states.get(split.group);
    if (known === undefined) {
      // Forgotten while running: restart from the true scheduled time, which includes this quantum.
      this.stateOf(split.group);
      return;
    }
    known.vruntime += quantumNanos;
    this.groups.update(known);
  }

  tick(_now?: number): void {
    // Virtual runtime moves only when time is charged.
  }

  /** Every queued split, least vruntime first, ties by sequence. */
  drain(): S[] {
    const all: SplitNode<S>[] = [];
    for (const state of this.groups.clear()) all.push(...state.splits.clear());
    this.nodes.clear();
    all.sort((a, b) => a.state.vruntime - b.state.vruntime || a.split.sequence - b.split.sequence);
    return all.map((node) => node.split);
  }

  levels(): LevelStat[] {
    return [
      {
        level: 0,
        label: 'fair',
        depth: this.nodes.size,
        scheduledNanos: this.scheduledNanos,
        selections: this.selections,
      },
    ];
  }

  private stateOf(group: FairnessGroup): GroupState<S> {
    const known = this.states.get(group);
    if (known !== undefined) return known;
    this.sweepIdle();
    const state: GroupState<S> = {
      group,
      vruntime: Math.max(group.scheduledNanos, this.floor),
      splits: new IndexedHeap<SplitNode<S>>(splitLess),
      heapIndex: -1,
    };
    this.states.set(group, state);
    return state;
  }

  /** Forgets groups with nothing queued once they dominate the table (amortised O(1)). */
  private sweepIdle(): void {
    if (this.states.size < SWEEP_FLOOR || this.states.size < 2 * this.groups.size) return;
    for (const [group, state] of this.states) {
      if (state.splits.size === 0) this.states.delete(group);
    }
  }
}
