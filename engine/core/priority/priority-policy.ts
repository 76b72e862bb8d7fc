/**
 * PRIO as a `ReadyQueue` (docs/design.md §3.2), so the executor can run it, swap it live and report it.
 * Orders splits by `split.basePriority` aged from `split.readySince`:
 *  - offer `'new'` and `'retry'` start the aging clock at `now` (a retried split must not keep the
 *    boost it earned before it failed); `'requeue'`, `'woken'` and `'moved'` keep it;
 *  - `tick(now)` re-evaluates aging; the executor calls it every `agingIntervalNanos`;
 *  - `charge` changes nothing about the order (PRIO is non-preemptive by default), it only counts.
 * Telemetry rows are the five base-priority bands: a job's band is its class, whatever its aging;
 * each row counts the aging boosts its splits got (the queue's re-keys to a more urgent priority).
 */
import type { LevelStat, OfferReason, ReadyQueue, ReadySplit } from '../ready-queue.ts';
import { BAND_COUNT, bandLabel, bandOf } from '../../../shared/lib/priority-bands.ts';
import {
  DEFAULT_PRIORITY_QUEUE_CONFIG,
  mergeConfig,
  QUEUE_CHECKS,
  type Check,
  type PriorityQueueConfig,
} from './config.ts';
import { PriorityTaskQueue } from './priority-task-queue.ts';

export interface PriorityPolicyConfig extends PriorityQueueConfig {
  /** How often the executor should call `tick` to re-evaluate aging (ns). */
  readonly agingIntervalNanos: number;
}

const POLICY_CHECKS: Record<keyof PriorityPolicyConfig, Check> = {
  ...QUEUE_CHECKS,
  agingIntervalNanos: (v) =>
    typeof v === 'number' && Number.isFinite(v) && v > 0 ? null : 'must be a finite number > 0',
};

export const DEFAULT_PRIORITY_POLICY_CONFIG: PriorityPolicyConfig = Object.freeze({
  ...DEFAULT_PRIORITY_QUEUE_CONFIG,
  agingIntervalNanos: 1_000_000_000,
});

export class PriorityPolicy<S extends ReadySplit = ReadySplit> implements ReadyQueue<S> {
  readonly policy = 'priority' as const;
  private readonly queue: PriorityTaskQueue<S>;
  private agingIntervalNanos: number;
  private readonly depth: number[] = new Array<number>(BAND_COUNT).fill(0);
  private readonly selections: number[] = new Array<number>(BAND_COUNT).fill(0);
  private readonly scheduled: number[] = new Array<number>(BAND_COUNT).fill(0);

  constructor(config: Partial<PriorityPolicyConfig> = {}) {
    const { agingIntervalNanos, ...queueConfig } = mergeConfig(
      DEFAULT_PRIORITY_POLICY_CONFIG,
      config,
      POLICY_CHECKS,
    );
    this.queue = new PriorityTaskQueue<S>(queueConfig);
    this.agingIntervalNanos = agingIntervalNanos;
  }

  get config(): PriorityPolicyConfig {
    return { ...this.queue.config, agingIntervalNanos: this.agingIntervalNanos };
  }

  get size(): number {
    return this.queue.size;
  }

  /** Offers refused at `maxQueued`. */
  get rejected(): number {
    return this.queue.rejected;
  }

  /** Heap entries including tombstones, next to `size` for telemetry. */
  get heapLength(): number {
    return this.queue.heapLength;
  }

  /** Validates the whole partial first, then applies it live. */
  configure(partial: Partial<PriorityPolicyConfig>): void {
    const { agingIntervalNanos, ...queueConfig } = mergeConfig(this.config, partial, POLICY_CHECKS);
    this.queue.configure(queueConfig);
    this.agingIntervalNanos = agingIntervalNanos;
  }

  offer(split: S, now: number = this.queue.time, reason: OfferReason = 'new'): void {
    const readySince = agingClock(split, now, reason);
    this.queue.push(split.id, split, split.basePriority, readySince);
    split.readySince = readySince;
    this.depth[bandOf(split.basePriority)]!++;
  }

  take(_now?: number): S | null {
    const item = this.queue.popItem();
    if (item === undefined) return null;
    const band = bandOf(this.queue.lastPoppedPriority);
    this.depth[band]!--;
    this.selections[band]!++;
    return item;
  }

  remove(split: S): boolean {
    const base = this.queue.basePriorityOf(split.id);
    if (base === undefined || !this.queue.remove(split.id)) return false;
    this.depth[bandOf(base)]!--;
    return true;
  }

  /** Changes a queued split's base priority (its aging clock keeps running); false if not queued. */
  reprioritize(split: S, priority: number): boolean {
    const base = this.queue.basePriorityOf(split.id);
    if (base === undefined || !this.queue.updatePriority(split.id, priority)) return false;
    this.depth[bandOf(base)]!--;
    this.depth[bandOf(priority)]!++;
    split.basePriority = priority;
    return true;
  }

  charge(split: S, quantumNanos: number, _now: number): void {
    this.scheduled[bandOf(split.basePriority)]! += quantumNanos;
  }

  tick(now: number): void {
    this.queue.tick(now);
  }

  drain(): S[] {
    this.depth.fill(0);
    return this.queue.drain().map((task) => task.item);
  }

  levels(): LevelStat[] {
    const rows: LevelStat[] = [];
    const boosts = new Array<number>(BAND_COUNT).fill(0);
    this.queue.agingBoostsByPriority.forEach((n, p) => (boosts[bandOf(p)]! += n));
    for (let band = 0; band < BAND_COUNT; band++) {
      rows.push({
        level: band,
        label: bandLabel(band),
        depth: this.depth[band]!,
        scheduledNanos: this.scheduled[band]!,
        selections: this.selections[band]!,
        agingBoosts: boosts[band]!,
      });
    }
    return rows;
  }
}

/**
 * Where a split's aging clock starts as it is offered: now for a new or retried split; for one
 * back from a quantum or a block, its old start moved on by the time since its dispatch, so it
 * keeps the time it has waited and gains none for the time it ran or was blocked (`wait` in the
 * aging formula is time ready but not running, docs/metrics.md); a split moved between policies
 * never left the queue and keeps its clock.
 */
export function agingClock(split: ReadySplit, now: number, reason: OfferReason): number {
  if (reason === 'new' || reason === 'retry') return now;
  // A split back from a quantum or a block was dispatched at or after it became ready: one
  // dispatched the very instant it was ready (`away === readySince`, a split alone at t = 0)
  // had its whole quantum counted as waiting. A split with no dispatch time keeps its clock.
  const away = split.dispatchedAt;
  if (
    (reason === 'requeue' || reason === 'woken') &&
    away !== undefined &&
    away >= split.readySince &&
    away <= now
  )
    return split.readySince + (now - away);
  return split.readySince;
}
