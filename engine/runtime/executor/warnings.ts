/**
 * The warnings panel's rules (docs/jobs.md "Warnings"), one definition for frames and
 * `jobDetail`. A live job is flagged once per rule, naming its worst split:
 *  - `starving`: a split has waited in the ready queue longer than the starvation bound (the one
 *    the starvation alarm uses);
 *  - `overrun`: a quantum of a split ran past its quantum by more than `runawayAfterMs` (one
 *    running now, or one that ended);
 *  - `slow-split`: a split has run more than `SLOW_SPLIT_FACTOR` × its class's median split
 *    time (recent succeeded splits, class-split-times.ts) and more than one quantum;
 *  - `retries`: a split has been retried more than `WARN_RETRIES` times.
 */
import { formatMs } from '../../../shared/lib/format.ts';
import { WARNING_RULES, type JobWarning, type WarningRule } from '../../../shared/protocol.ts';
import { SplitState } from './lifecycle.ts';
import type { ExecSplit } from './records.ts';

export const SLOW_SPLIT_FACTOR = 10;
export const WARN_RETRIES = 3;

export interface WarningBounds {
  now: number;
  starvationNanos: number;
  runawayNanos: number;
  quantumNanos: number;
  /** A class's median split time (ns), or null while it has too few splits. */
  median(clsIndex: number): number | null;
}

interface Found {
  split: ExecSplit;
  rule: WarningRule;
  /** How bad (ns or a count): the worst split per job and rule is kept. */
  size: number;
  message: string;
}

/** The warnings `splits` raise now, worst first within each rule, rules in `WARNING_RULES` order. */
export function findWarnings(splits: Iterable<ExecSplit>, b: WarningBounds): JobWarning[] {
  const worst = new Map<string, Found>();
  const flag = (split: ExecSplit, rule: WarningRule, size: number, message: () => string) => {
    const key = `${split.job.id}:${rule}`;
    const had = worst.get(key);
    if (had === undefined || size > had.size) {
      worst.set(key, { split, rule, size, message: message() });
    }
  };
  for (const s of splits) {
    if (s.job.state !== 'running') continue; // a cancelling split of an ended job
    const running = s.state === SplitState.running || s.state === SplitState.cancelling;
    const runningFor = running ? b.now - s.dispatchedAt : 0;
    if (s.state === SplitState.queued) {
      const wait = b.now - s.enqueuedAt;
      if (wait > b.starvationNanos) {
        flag(
          s,
          'starving',
          wait,
          () => `split ${s.id} has waited ${ms(wait)} (bound ${ms(b.starvationNanos)})`,
        );
      }
    }
    const over = Math.max(s.maxOverrunNanos, runningFor - b.quantumNanos);
    if (over > b.runawayNanos) {
      flag(
        s,
        'overrun',
        over,
        () => `split ${s.id} ran ${ms(over)} past its quantum (bound ${ms(b.runawayNanos)})`,
      );
    }
    const ran = s.scheduledNanos + runningFor;
    const median = b.median(s.job.clsIndex);
    if (median !== null && ran > SLOW_SPLIT_FACTOR * median && ran > b.quantumNanos) {
      flag(
        s,
        'slow-split',
        ran,
        () =>
          `split ${s.id} has run ${ms(ran)}, ${Math.round(ran / Math.max(1, median))}× its class's median ${ms(median)}`,
      );
    }
    if (s.failures > WARN_RETRIES) {
      flag(
        s,
        'retries',
        s.failures,
        () => `split ${s.id} retried ${s.failures} times (more than ${WARN_RETRIES})`,
      );
    }
  }
  const order = (r: WarningRule) => WARNING_RULES.indexOf(r);
  return [...worst.values()]
    .sort(
      (x, y) => order(x.rule) - order(y.rule) || y.size - x.size || x.split.job.id - y.split.job.id,
    )
    .map((f) => ({
      jobId: f.split.job.id,
      class: f.split.job.cls,
      rule: f.rule,
      splitId: f.split.id,
      message: f.message,
    }));
}

function ms(nanos: number): string {
  return formatMs(nanos / 1e6);
}
