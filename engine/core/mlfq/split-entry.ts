/**
 * The MLFQ queue's entry for one split. It lives on the split (`ReadySplit.queueEntry`), not in a
 * map keyed by split id, and is reused while its split is away and comes back: a queued split
 * costs one small object of fixed shape. Five fields: the level and the two flags share one
 * number, and the sequence is read from the split (only when the entry is pushed or sorted).
 *
 * A split is queued in at most one queue at a time: `owner` says which, so a queue never acts on
 * an entry another queue holds.
 */
import type { FairnessGroup, ReadySplit } from '../ready-queue.ts';
import type { LevelEntry } from './level-heap.ts';

const QUEUED = 1;
const IN_HEAP = 2;
const FLAGS = QUEUED | IN_HEAP;
const LEVEL_SHIFT = 2;

export class SplitEntry<S extends ReadySplit> implements LevelEntry<S> {
  private bits: number;

  constructor(
    public split: S,
    public group: FairnessGroup,
    public levelPriority: number,
    level: number,
    public owner: object,
  ) {
    this.bits = level << LEVEL_SHIFT;
  }

  /** The split's creation order (ties between equal priorities). */
  get sequence(): number {
    return this.split.sequence;
  }

  /** The level of the Priority the split was queued with. */
  get level(): number {
    return this.bits >> LEVEL_SHIFT;
  }
  set level(level: number) {
    this.bits = (level << LEVEL_SHIFT) | (this.bits & FLAGS);
  }

  get queued(): boolean {
    return (this.bits & QUEUED) !== 0;
  }
  set queued(on: boolean) {
    this.bits = on ? this.bits | QUEUED : this.bits & ~QUEUED;
  }

  get inHeap(): boolean {
    return (this.bits & IN_HEAP) !== 0;
  }
  set inHeap(on: boolean) {
    this.bits = on ? this.bits | IN_HEAP : this.bits & ~IN_HEAP;
  }
}
