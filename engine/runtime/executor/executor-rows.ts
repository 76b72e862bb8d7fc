/**
 * The executor's level and worker tables, as the protocol sends them (shared/protocol.ts): read
 * from the policy's levels and from which split runs on which worker, nothing kept.
 */
import type { LevelRow, RunawaySplit, WorkerRow } from '../../../shared/protocol.ts';
import type { PolicyName, ReadyQueue } from '../../core/ready-queue.ts';
import type { Backend } from '../backend.ts';
import type { ExecSplit } from './records.ts';

/** What a queue charged to each row: MLFQ says so itself; other policies' row time is charged. */
function chargedOf(row: ReturnType<ReadyQueue['levels']>[number]): number {
  const charged = (row as { chargedNanos?: number }).chargedNanos;
  return charged ?? row.scheduledNanos;
}

/**
 * Level rows with `chargedNanos` cumulative since the executor began (shared/protocol.ts
 * `LevelRow`): a policy switch makes a fresh queue whose counts start at 0, so what each policy's
 * earlier queues charged (and, for PRIO, the aging boosts they gave) is carried and added back
 * when that policy runs again.
 */
export class LevelTable {
  private readonly carried = new Map<PolicyName, { charged: number[]; boosts: number[] }>();

  /** Called with the outgoing queue before a policy switch replaces it. */
  retire(queue: ReadyQueue<ExecSplit>): void {
    const carry = this.carryOf(queue.policy);
    queue.levels().forEach((row, i) => {
      carry.charged[i] = (carry.charged[i] ?? 0) + chargedOf(row);
      if (row.agingBoosts !== undefined) {
        carry.boosts[i] = (carry.boosts[i] ?? 0) + row.agingBoosts;
      }
    });
  }

  rows(queue: ReadyQueue<ExecSplit>): LevelRow[] {
    const carry = this.carryOf(queue.policy);
    return queue.levels().map((l, i) => {
      const min = (l as { levelMinPriority?: number }).levelMinPriority;
      return {
        level: l.level,
        label: l.label,
        depth: l.depth,
        scheduledNanos: l.scheduledNanos,
        selections: l.selections,
        minPriority: min ?? null,
        chargedNanos: chargedOf(l) + (carry.charged[i] ?? 0),
        // Only policies that age report boosts (PRIO); others have no such row field.
        ...(l.agingBoosts === undefined
          ? {}
          : { agingBoosts: l.agingBoosts + (carry.boosts[i] ?? 0) }),
      };
    });
  }

  private carryOf(policy: PolicyName): { charged: number[]; boosts: number[] } {
    let carry = this.carried.get(policy);
    if (carry === undefined) this.carried.set(policy, (carry = { charged: [], boosts: [] }));
    return carry;
  }
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

/**
 * When the quantum on worker `w` started, by the backend's clock: the backend's own start
 * (`Backend.quantumStart`: after a starting worker booted) or else the dispatch; null while the
 * dispatch still waits for its worker to start.
 */
function startOf(backend: Backend, w: number, s: ExecSplit): number | null {
  return backend.quantumStart === undefined ? s.dispatchedAt : backend.quantumStart(w);
}

/**
 * Time so far of the quanta running now (ns, from their start; at most `Backend.runningBound`),
 * and how far past `quantum`.
 */
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
    const bound = backend.runningBound === undefined ? Infinity : backend.runningBound(w);
    const ran = Math.max(0, Math.min(now - start, bound));
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
