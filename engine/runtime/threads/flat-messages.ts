/**
 * The flat forms of the two messages that cross once a quantum (protocol.ts `ModuleCall`,
 * `FlatEnd`): arrays of numbers clone several times faster than nested objects with keys.
 * Module refs are named by small ids, each sent to a worker once (`ModuleIds`).
 */
import type { Transferable } from 'node:worker_threads';
import { MAX_MODULE_EXPORTS } from '../../../shared/limits.ts';
import { outcomeAt, outcomeIndex } from '../../../shared/lib/outcomes.ts';
import type { Dispatch, ModuleRef } from '../backend.ts';
import type { PoolWorker, Ticket } from './pool-worker.ts';
import {
  FLAT_NONE,
  FLAT_RESULT,
  FLAT_STATE,
  FLAT_SUSPENDED,
  type FlatEnd,
  type ModuleRefMessage,
  type QuantumReport,
} from './protocol.ts';
import type { Outbox } from './outbox.ts';

/**
 * Ids of module refs: one per `module#export`, found by the ref object first (no string). At most
 * `MAX_MODULE_EXPORTS` of them (`admits`): each stays loaded in every worker for good.
 */
export class ModuleIds {
  private readonly byRef = new WeakMap<ModuleRef, number>();
  private readonly byName = new Map<string, number>();

  /**
   * Whether `ref` has an id, giving it one now when there is room: taken at admission, not at
   * dispatch, or every export queued in one burst passed the bound (1,500 queued at once, 1,500 ids).
   */
  admit(ref: ModuleRef): boolean {
    if (this.byRef.has(ref)) return true;
    if (this.byName.size >= MAX_MODULE_EXPORTS && !this.byName.has(nameOf(ref))) return false;
    this.id(ref);
    return true;
  }

  id(ref: ModuleRef): number {
    let id = this.byRef.get(ref);
    if (id !== undefined) return id;
    const name = nameOf(ref);
    id = this.byName.get(name);
    if (id === undefined) {
      id = this.byName.size;
      this.byName.set(name, id);
    }
    this.byRef.set(ref, id);
    return id;
  }
}

function nameOf(ref: ModuleRef): string {
  return `${ref.module}#${ref.exportName ?? 'default'}`;
}

/** `report` as a `FlatEnd`, or null when it has fields only the object form carries. */
export function flattenReport(report: QuantumReport): FlatEnd | null {
  if (report.error !== undefined || report.blockedNanos !== undefined) return null;
  const kind =
    'result' in report
      ? FLAT_RESULT
      : 'state' in report
        ? FLAT_STATE
        : report.suspended === true
          ? FLAT_SUSPENDED
          : FLAT_NONE;
  const value = kind === FLAT_RESULT ? report.result : kind === FLAT_STATE ? report.state : null;
  const { splitId, startNanos, endNanos, workNanos, outcome, cpuNanos } = report;
  return [
    splitId,
    startNanos,
    endNanos,
    workNanos,
    outcomeIndex(outcome),
    cpuNanos ?? -1,
    kind,
    value,
  ];
}

export function unflattenReport(flat: FlatEnd): QuantumReport {
  return unflattenAt(flat, 0);
}

/** The `FlatEnd` at `at` in `flat`, a run of them one after another (protocol.ts `ends`). */
export function unflattenAt(flat: readonly unknown[], at: number): QuantumReport {
  const splitId = flat[at] as number;
  const startNanos = flat[at + 1] as number;
  const endNanos = flat[at + 2] as number;
  const workNanos = flat[at + 3] as number;
  const outcome = flat[at + 4] as number;
  const cpuNanos = flat[at + 5] as number;
  const kind = flat[at + 6] as number;
  const value = flat[at + 7];
  const report: { -readonly [K in keyof QuantumReport]: QuantumReport[K] } = {
    splitId,
    startNanos,
    endNanos,
    workNanos,
    outcome: outcomeAt(outcome),
  };
  if (cpuNanos >= 0) report.cpuNanos = cpuNanos;
  if (kind === FLAT_RESULT) report.result = value;
  else if (kind === FLAT_STATE) report.state = value;
  else if (kind === FLAT_SUSPENDED) report.suspended = true;
  return report;
}

/**
 * Posts `dispatch` (with `input`, its first input or its yielded state) to `worker`'s thread: a
 * built-in kernel's as the `RunMessage` object, a module's as a `ModuleCall`, its ref sent first
 * if that worker has not had it, through `out` (posted together at the end of the turn).
 */
export function postDispatch(
  worker: PoolWorker,
  ids: ModuleIds,
  dispatch: Dispatch,
  input: unknown,
  ticket: Ticket | undefined,
  out: Outbox,
  /** What `input` moves rather than copies (its run's first quantum only). */
  transfer?: readonly Transferable[],
): void {
  const { kernel } = dispatch.work;
  if (typeof kernel === 'string') {
    out.send(
      worker,
      ticket === undefined
        ? { type: 'run', dispatch, input }
        : { type: 'run', dispatch, input, ticket },
      dispatch,
    );
    return;
  }
  const id = ids.id(kernel);
  if (!worker.refsSent.has(id)) {
    out.send(worker, { type: 'ref', id, ref: kernel } satisfies ModuleRefMessage, null);
    worker.refsSent.add(id);
  }
  out.call(worker, dispatch, id, input, ticket, transfer);
}
