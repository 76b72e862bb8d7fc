/**
 * The policy factory: builds any `ReadyQueue` by name and applies the engine's knobs to a live
 * one, so the executor can switch policies and retune them without knowing their classes.
 */
import { bandOf } from '../../shared/lib/priority-bands.ts';
import { FairQueue, FifoQueue } from './baseline/index.ts';
import { MultilevelSplitQueue } from './mlfq/multilevel-split-queue.ts';
import { PriorityPolicy } from './priority/index.ts';
import type { PolicyName, ReadyQueue, ReadySplit } from './ready-queue.ts';

export const POLICIES: readonly PolicyName[] = ['mlfq', 'priority', 'fifo', 'fair'];

/** Every knob a policy may take, in ns (the executor converts from the ms of the config). */
export interface PolicyKnobs {
  readonly levelTimeMultiplier: number;
  readonly levelThresholdsNanos: readonly number[];
  readonly levelContributionCapNanos: number;
  readonly aging: boolean;
  readonly agingAfterNanos: number;
  readonly agingStepNanos: number;
  readonly agingCap: number;
  readonly agingIntervalNanos: number;
  readonly quotaBurst: number;
  readonly maxQueued: number;
  /** The dispatch quantum (ns): `fair`'s bound on a returning group's credit. */
  readonly quantumNanos: number;
}

export function createPolicy<S extends ReadySplit>(
  name: PolicyName,
  knobs: PolicyKnobs,
): ReadyQueue<S> {
  switch (name) {
    case 'mlfq':
      return new MultilevelSplitQueue<S>({
        levelTimeMultiplier: knobs.levelTimeMultiplier,
        levelThresholdsNanos: knobs.levelThresholdsNanos,
        levelContributionCapNanos: knobs.levelContributionCapNanos,
      });
    case 'priority':
      return new PriorityPolicy<S>(priorityConfig(knobs));
    case 'fifo':
      return new FifoQueue<S>();
    case 'fair':
      return new FairQueue<S>(knobs.quantumNanos);
  }
}

/** Applies the knobs to a live policy (those it has; the rest do not concern it). */
export function configurePolicy(queue: ReadyQueue<ReadySplit>, knobs: PolicyKnobs): void {
  if (queue instanceof MultilevelSplitQueue) {
    queue.setLevelTimeMultiplier(knobs.levelTimeMultiplier);
    queue.setLevelThresholds(knobs.levelThresholdsNanos);
    queue.setLevelContributionCap(knobs.levelContributionCapNanos);
  } else if (queue instanceof PriorityPolicy) {
    queue.configure(priorityConfig(knobs));
  } else if (queue instanceof FairQueue) {
    queue.setQuantum(knobs.quantumNanos);
  }
}

/** The row a split is drawn in (Gantt "level"): MLFQ level, PRIO band, else 0. */
export function policyLevel(queue: ReadyQueue<ReadySplit>, split: ReadySplit): number {
  if (queue.policy === 'mlfq') return split.priority.level;
  if (queue.policy === 'priority') return bandOf(split.basePriority);
  return 0;
}

function priorityConfig(k: PolicyKnobs) {
  return {
    aging: k.aging,
    agingAfterNanos: k.agingAfterNanos,
    agingStepNanos: k.agingStepNanos,
    agingCap: k.agingCap,
    agingIntervalNanos: k.agingIntervalNanos,
    quotaBurst: k.quotaBurst,
    maxQueued: k.maxQueued,
  };
}
