/**
 * The executor's level and worker tables, as the protocol sends them (shared/protocol.ts): read
 * from the policy's levels and from which split runs on which worker, nothing kept.
 */
import type { LevelRow, WorkerRow } from '../../../shared/protocol.ts';
import type { ReadyQueue } from '../../core/ready-queue.ts';
import type { Backend } from '../backend.ts';
import type { ExecSplit } from './records.ts';

export function levelRows(queue: ReadyQueue<ExecSplit>): LevelRow[] {
  return queue.levels().map((l) => {
    const min = (l as { levelMinPriority?: number }).levelMinPriority;
    return {
      level: l.level,
      label: l.label,
      depth: l.depth,
      scheduledNanos: l.scheduledNanos,
      selections: l.selections,
      minPriority: min ?? null,
    };
  });
}

/**
 * One row per worker: `running` a split, `idle`, `retiring` (beyond a lowered count, finishing
 * its quantum) or `starting` (within the count but not yet able to take work: booting, or
 * replacing a worker that died and waiting out its restart backoff).
 */
export function workerRows(
  backend: Backend,
  runningOn: readonly (ExecSplit | null)[],
): WorkerRow[] {
  const rows: WorkerRow[] = [];
  const idle = new Set(backend.idleWorkers());
  const n = Math.max(backend.workerCount, runningOn.length);
  for (let id = 0; id < n; id++) {
    const s = runningOn[id] ?? null;
    if (s === null && id >= backend.workerCount) continue;
    const node = backend.workerNode?.(id);
    rows.push({
      ...(node === undefined ? {} : { node }),
      id,
      state:
        s !== null
          ? id >= backend.workerCount
            ? 'retiring'
            : 'running'
          : idle.has(id)
            ? 'idle'
            : 'starting',
      splitId: s ? s.id : null,
      jobId: s ? s.job.id : null,
      sinceNanos: s ? s.dispatchedAt : null,
    });
  }
  return rows;
}
