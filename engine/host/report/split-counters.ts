/**
 * The counters a host shows (frames, Trino status lines): the executor's, with the splits queued
 * behind a worker's running quantum (`ExecutorOptions.pipeline`: the cluster's node workers) moved
 * from `splitsRunning` to `splitsQueued`. The executor counts such a split running from its
 * dispatch; it has not started, and running means on a worker now (docs/metrics.md).
 */
import type { Counters } from '../../../shared/protocol.ts';
import type { Executor } from '../../runtime/executor/executor.ts';

export function shownCounters(executor: Executor): Counters {
  const c = executor.counters;
  const behind = executor.queuedBehind();
  if (behind === 0) return c;
  return { ...c, splitsRunning: c.splitsRunning - behind, splitsQueued: c.splitsQueued + behind };
}
