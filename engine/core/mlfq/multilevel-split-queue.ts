/**
 * Trino's `MultilevelSplitQueue` (docs/design.md §3.1): five levels of splits, each a heap ordered by
 * `(levelPriority, sequence)`. A fairness group's accumulated scheduled time decides its level;
 * `poll` serves the level furthest behind its target share (each busy level gets m times the time
 * of the next), so short work runs first without starving long work.
 *
 * Priority lives on the fairness group (`group.priority`, shared by all its splits); a split only
 * caches the Priority it was queued with, refreshed on take, charge and wake — as Trino's
 * `PrioritizedSplitRunner` caches its `TaskHandle`'s priority.
 */
import type { LevelStat, OfferReason, Priority, ReadyQueue, ReadySplit } from '../ready-queue.ts';
import { SchedLabError } from '../../../shared/errors.ts';
import { LevelHeap } from './level-heap.ts';
import { nextQueueStamp, PricedPriority, roundedQuotient } from './priced-priority.ts';
import { SplitEntry } from './split-entry.ts';
import {
  DEFAULT_LEVEL_CONTRIBUTION_CAP_NANOS,
  DEFAULT_LEVEL_THRESHOLDS_NANOS,
  DEFAULT_LEVEL_TIME_MULTIPLIER,
  LEVEL_COUNT,
  checkLevel,
  checkLevelContributionCap,
  checkLevelThresholds,
  checkLevelTimeMultiplier,
  type MultilevelSplitQueueOptions,
} from './mlfq-config.ts';

/**
 * A telemetry row: `LevelStat` plus the level's current minimum priority (−1 until set) and its
 * charged time. `scheduledNanos` is the queue's internal level clock (`levelScheduledTime`, which
 * `offer` also sets when an empty level is caught up); `chargedNanos` is only what quanta
 * contributed to the level (after the contribution cap, split across levels when a quantum
 * crosses a threshold), cumulative since the queue was made: the basis of level shares.
 */
export interface MlfqLevelStat extends LevelStat {
  readonly levelMinPriority: number;
  readonly chargedNanos: number;
}

export class MultilevelSplitQueue<S extends ReadySplit = ReadySplit> implements ReadyQueue<S> {
  readonly policy = 'mlfq' as const;

  private readonly waiting: LevelHeap<S, SplitEntry<S>>[] = [];
  /** Queued splits (their entries are on the splits: `SplitEntry`). */
  private queuedCount = 0;
  private readonly levelScheduledTime: number[] = new Array<number>(LEVEL_COUNT).fill(0);
  /** What `advance` charged to each level, never the catch-up jumps of `enqueue`. */
  private readonly levelChargedTime: number[] = new Array<number>(LEVEL_COUNT).fill(0);
  private readonly levelMinPriority: number[] = new Array<number>(LEVEL_COUNT).fill(-1);
  private readonly selectedCount: number[] = new Array<number>(LEVEL_COUNT).fill(0);
  /** Stamped on every Priority this queue gives a group (see `PricedPriority`). */
  private readonly stamp = nextQueueStamp();
  /** The level `advance` computed (its second result, kept off the heap). */
  private advancedLevel = 0;

  private multiplier = DEFAULT_LEVEL_TIME_MULTIPLIER;
  private inverseMultiplier = 1 / DEFAULT_LEVEL_TIME_MULTIPLIER;
  /** `multiplierPowers[L] = m^L`, recomputed when m changes. */
  private multiplierPowers: number[] = [];
  private thresholds: readonly number[] = DEFAULT_LEVEL_THRESHOLDS_NANOS;
  private contributionCap = DEFAULT_LEVEL_CONTRIBUTION_CAP_NANOS;

  constructor(options: MultilevelSplitQueueOptions = {}) {
    for (let level = 0; level < LEVEL_COUNT; level++)
      this.waiting.push(new LevelHeap<S, SplitEntry<S>>());
    this.setLevelTimeMultiplier(options.levelTimeMultiplier ?? DEFAULT_LEVEL_TIME_MULTIPLIER);
    if (options.levelThresholdsNanos !== undefined)
      this.setLevelThresholds(options.levelThresholdsNanos);
    if (options.levelContributionCapNanos !== undefined) {
      this.setLevelContributionCap(options.levelContributionCapNanos);
    }
  }

  // ---- knobs (all live) ----------------------------------------------------------------------

  get levelTimeMultiplier(): number {
    return this.multiplier;
  }

  get levelThresholdsNanos(): readonly number[] {
    return this.thresholds;
  }

  get levelContributionCapNanos(): number {
    return this.contributionCap;
  }

  setLevelTimeMultiplier(m: number): void {
    this.multiplier = checkLevelTimeMultiplier(m);
    this.inverseMultiplier = 1 / this.multiplier;
    this.multiplierPowers = Array.from({ length: LEVEL_COUNT }, (_, level) => m ** level);
  }

  setLevelThresholds(thresholdsNanos: readonly number[]): void {
    this.thresholds = checkLevelThresholds(thresholdsNanos);
  }

  setLevelContributionCap(capNanos: number): void {
    this.contributionCap = checkLevelContributionCap(capNanos);
  }

  // ---- Trino's MultilevelSplitQueue ------------------------------------------------------------

  get size(): number {
    return this.queuedCount;
  }

  /** Entries in the level heaps, live or tombstones (for memory checks). */
  get heapLength(): number {
    let n = 0;
    for (const heap of this.waiting) n += heap.length;
    return n;
  }

  /** Highest level whose threshold the group's scheduled time has reached. */
  computeLevel(scheduledNanos: number): number {
    for (let level = LEVEL_COUNT - 1; level > 0; level--) {
      if (scheduledNanos >= this.thresholds[level]!) return level;
    }
    return 0;
  }

  getLevelScheduledTime(level: number): number {
    return this.levelScheduledTime[checkLevel(level)]!;
  }

  /** The level's minimum priority; the first caller seeds it with its own scheduled time. */
  getLevelMinPriority(level: number, scheduledNanos: number): number {
    checkLevel(level);
    if (this.levelMinPriority[level] === -1) this.levelMinPriority[level] = scheduledNanos;
    return this.levelMinPriority[level]!;
  }

  /** Per-level minimum priorities for telemetry (−1 where a level has none yet). */
  get levelMinPriorities(): readonly number[] {
    return [...this.levelMinPriority];
  }

  /**
   * Charges one quantum to the level times and returns the group's new Priority. The level's
   * share is capped (a hung call must not starve a level); a quantum that crosses thresholds
   * charges each level it passed up to that level's width, as if it had run there.
   */
  updatePriority(priority: Priority, quantaNanos: number, scheduledNanos: number): Priority {
    const levelPriority = this.advance(priority, quantaNanos, scheduledNanos);
    return { level: this.advancedLevel, levelPriority };
  }

  /** `updatePriority`'s work: returns the new levelPriority, leaves the level in `advancedLevel`. */
  private advance(priority: Priority, quantaNanos: number, scheduledNanos: number): number {
    if (!Number.isFinite(quantaNanos) || quantaNanos < 0) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `quantaNanos must be ≥ 0 (got ${quantaNanos})`,
        'quantaNanos',
      );
    }
    const oldLevel = checkLevel(priority.level);
    const thresholds = this.thresholds;
    // Most quanta leave the group on its level: check that before scanning every threshold.
    const newLevel =
      scheduledNanos >= thresholds[oldLevel]! &&
      (oldLevel === LEVEL_COUNT - 1 || scheduledNanos < thresholds[oldLevel + 1]!)
        ? oldLevel
        : this.computeLevel(scheduledNanos);
    const contribution = Math.min(quantaNanos, this.contributionCap);
    if (oldLevel === newLevel) {
      this.levelScheduledTime[oldLevel]! += contribution;
      this.levelChargedTime[oldLevel]! += contribution;
      this.advancedLevel = oldLevel;
      return priority.levelPriority + quantaNanos;
    }
    let remainingContribution = contribution;
    let remainingTaskTime = quantaNanos;
    // Walks upward only: levels never go down because scheduled time only grows (a lowered
    // threshold can move a group down; then nothing is walked and all goes to the new level).
    for (let level = oldLevel; level < newLevel; level++) {
      const width = this.thresholds[level + 1]! - this.thresholds[level]!;
      const accrued = Math.min(width, remainingContribution);
      this.levelScheduledTime[level]! += accrued;
      this.levelChargedTime[level]! += accrued;
      remainingContribution -= accrued;
      remainingTaskTime -= accrued;
    }
    this.levelScheduledTime[newLevel]! += remainingContribution;
    this.levelChargedTime[newLevel]! += remainingContribution;
    const levelMin = this.getLevelMinPriority(newLevel, scheduledNanos);
    this.advancedLevel = newLevel;
    return levelMin + remainingTaskTime;
  }

  /**
   * Queues a split at its cached Priority's level. An empty level's scheduled time is set to its
   * expected share first, so a level that sat idle does not come back with a huge deficit.
   * `woken` raises the group to its level's minimum priority (a task that slept must not
   * monopolise its level); `moved` derives the Priority of a group this queue never priced.
   */
  offer(split: S, _now?: number, reason: OfferReason = 'new'): void {
    const idle = idleEntry(split); // throws DUPLICATE_ID when queued
    if (reason === 'woken') this.raiseToLevelMin(split);
    else if (reason === 'moved') this.priceMovedGroup(split);
    this.enqueue(split, idle);
  }

  /**
   * Next split to run. Its cached Priority is refreshed from its group; if the group changed
   * level meanwhile the split is re-queued at the right level and the choice is made again.
   */
  take(_now?: number): S | null {
    for (;;) {
      const entry = this.poll();
      if (entry === null) return null;
      const split = entry.split;
      const fresh = entry.group.priority;
      // The entry holds the level of the Priority the split was queued with.
      const levelChanged = fresh.level !== entry.level;
      split.priority = fresh;
      if (levelChanged) {
        this.enqueue(split, entry);
        continue;
      }
      this.levelMinPriority[fresh.level] = fresh.levelPriority;
      this.selectedCount[fresh.level]!++;
      return split;
    }
  }

  remove(split: S): boolean {
    const entry = split.queueEntry;
    if (!(entry instanceof SplitEntry) || entry.owner !== this || !entry.queued) return false;
    this.dequeued(entry);
    this.waiting[entry.level]!.remove(entry);
    return true;
  }

  /** The executor has already added the quantum to `group.scheduledNanos`. */
  charge(split: S, quantumNanos: number, _now?: number): void {
    const group = split.group;
    const levelPriority = this.advance(group.priority, quantumNanos, group.scheduledNanos);
    const priority = new PricedPriority(this.advancedLevel, levelPriority, this.stamp, group);
    group.priority = priority;
    split.priority = priority;
  }

  tick(_now?: number): void {
    // No time-dependent priority: levels move only when time is charged.
  }

  /** Every queued split, level 0 first, each level in `(levelPriority, sequence)` order. */
  drain(): S[] {
    const out: S[] = [];
    for (const heap of this.waiting) {
      for (const entry of heap.clear()) {
        entry.queued = false;
        out.push(entry.split);
      }
    }
    this.queuedCount = 0;
    return out;
  }

  levels(): MlfqLevelStat[] {
    return this.waiting.map((heap, level) => ({
      level,
      label: `L${level}`,
      depth: heap.size,
      scheduledNanos: this.levelScheduledTime[level]!,
      selections: this.selectedCount[level]!,
      levelMinPriority: this.levelMinPriority[level]!,
      chargedNanos: this.levelChargedTime[level]!,
    }));
  }

  // ---- internals -----------------------------------------------------------------------------

  /** `max over L of levelScheduledTime[L] · m^L` (truncated to whole ns, as Trino's longs). */
  private level0TargetTime(): number {
    const times = this.levelScheduledTime;
    const powers = this.multiplierPowers;
    let target = times[0]!;
    for (let level = 1; level < LEVEL_COUNT; level++) {
      const scaled = times[level]! * powers[level]!;
      if (scaled > target) target = scaled;
    }
    return Math.trunc(target); // trunc is monotonic: the max of truncations, truncated once
  }

  /** The level with the highest target/actual ratio (ties to the lower level), or null. */
  private poll(): SplitEntry<S> | null {
    if (this.queuedCount === 0) return null;
    const waiting = this.waiting;
    let last = LEVEL_COUNT - 1;
    while (waiting[last]!.size === 0) last--; // no level above the last busy one needs a target
    let target = this.level0TargetTime();
    let worstRatio = 1;
    let selected = -1;
    for (let level = 0; level <= last; level++) {
      if (waiting[level]!.size > 0) {
        const levelTime = this.levelScheduledTime[level]!;
        // As Trino: a level with no time yet has ratio 0 (offer gives a joining level its share).
        const ratio = levelTime === 0 ? 0 : target / levelTime;
        if (selected === -1 || ratio > worstRatio) {
          worstRatio = ratio;
          selected = level;
        }
      }
      if (level < last) target = roundedQuotient(target, this.multiplier, this.inverseMultiplier);
    }
    if (selected === -1) return null;
    const entry = this.waiting[selected]!.pop()!;
    this.dequeued(entry);
    return entry;
  }

  private dequeued(entry: SplitEntry<S>): void {
    entry.queued = false;
    this.queuedCount--;
  }

  /** Queues at the split's cached level, reusing the split's idle entry when there is one. */
  private enqueue(split: S, idle: SplitEntry<S> | undefined): void {
    const { level, levelPriority } = split.priority;
    checkLevel(level);
    const heap = this.waiting[level]!;
    if (heap.size === 0) {
      this.levelScheduledTime[level] = Math.trunc(
        this.level0TargetTime() / this.multiplierPowers[level]!,
      );
    }
    // An entry removed while queued may still sit in its heap as a tombstone: not reusable.
    let entry = idle;
    if (entry === undefined || entry.inHeap) {
      entry = new SplitEntry(split, split.group, levelPriority, level, this);
      split.queueEntry = entry;
    } else {
      entry.split = split;
      entry.group = split.group;
      entry.level = level;
      entry.levelPriority = levelPriority;
      entry.owner = this;
    }
    entry.queued = true;
    this.queuedCount++;
    heap.push(entry);
  }

  /** Trino's `TaskHandle.resetLevelPriority`, then the split caches the group's Priority. */
  private raiseToLevelMin(split: S): void {
    const group = split.group;
    const { level, levelPriority } = group.priority;
    const levelMin = this.getLevelMinPriority(level, group.scheduledNanos);
    if (levelPriority < levelMin) {
      group.priority = new PricedPriority(level, levelMin, this.stamp, group);
    }
    split.priority = group.priority;
  }

  /**
   * A split arriving by a policy switch: a group this queue never priced (or whose time moved it
   * to another level while elsewhere) enters its level at the level's minimum priority, as if it
   * had just been promoted there.
   */
  private priceMovedGroup(split: S): void {
    const group = split.group;
    const level = this.computeLevel(group.scheduledNanos);
    const current = group.priority;
    const priced = PricedPriority.pricedBy(current, this.stamp, group);
    if (!priced || current.level !== level) {
      const levelMin = this.getLevelMinPriority(level, group.scheduledNanos);
      group.priority = new PricedPriority(level, levelMin, this.stamp, group);
    }
    split.priority = group.priority;
  }
}

/** The split's idle entry, if it has one; throws DUPLICATE_ID when the split is queued. */
function idleEntry<S extends ReadySplit>(split: S): SplitEntry<S> | undefined {
  const entry = split.queueEntry;
  if (!(entry instanceof SplitEntry)) return undefined;
  if (entry.queued) {
    throw new SchedLabError('DUPLICATE_ID', `split ${split.id} is already queued`, 'split.id');
  }
  return entry as SplitEntry<S>;
}
