/**
 * The executor's level and worker tables, as the protocol sends them (shared/protocol.ts): read
 * from the policy's levels and from which split runs on which worker, nothing kept.
 */
import type { LevelRow, RunawaySplit, WorkerRow } from '../../../shared/protocol.ts';
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
    rows.push({
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

/**
 * When the quantum on worker `w` started, by the backend's clock: the backend's own start
 * (`Backend.quantumStart`: after a starting worker booted) or else the dispatch; null while the
 * dispatch still waits for its worker to start.
 */
function startOf(backend: Backend, w: number, s: ExecSplit): number | null {
  return backend.quantumStart === undefined ? s.dispatchedAt : backend.quantumStart(w);
}

/** Time so far of the quanta running now (ns, from their start), and how far past `quantum`. */
export function runningTime(
  backend: Backend,
  runningOn: readonly (ExecSplit | null)[],
  now: number,
  quantum: number,
): { busy: number; overrun: number } {
  let busy = 0;
  let overrun = 0;
  for (let w = 0; w < runningOn.length; w++) {
    const s = runningOn[w];
    if (s === null || s === undefined) continue;
    const start = startOf(backend, w, s);
    if (start === null) continue;
    const ran = Math.max(0, now - start);
    busy += ran;
    if (ran > quantum) overrun += ran - quantum;
  }
  return { busy, overrun };
}

/** Splits running now past `quantum + margin` (Trino's runaway splits), by worker. */
export function runawaySplits(
  backend: Backend,
  runningOn: readonly (ExecSplit | null)[],
  now: number,
  quantum: number,
  margin: number,
): RunawaySplit[] {
  const out: RunawaySplit[] = [];
  for (let w = 0; w < runningOn.length; w++) {
    const s = runningOn[w];
    if (s === null || s === undefined) continue;
    const start = startOf(backend, w, s);
    if (start === null) continue;
    const overrun = now - start - quantum;
    if (overrun <= margin) continue;
    out.push({
      workerId: w,
      splitId: s.id,
      taskId: s.task.id,
      jobId: s.job.id,
      overrunMs: Math.round(overrun / 1e3) / 1e3,
    });
  }
  return out;
}
