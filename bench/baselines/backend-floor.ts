/**
 * The `pool` suite's lower bound: the threads backend `scheduler.run` runs on (the compiled
 * package's `ThreadsBackend`), driven with no scheduler at all. Each task is one dispatch, taken
 * in arrival order; every worker is kept full (`start` on an idle one, `enqueue` behind a busy
 * one, as the executor does); each quantum's end settles its task's promise. No policy, no job or
 * split records, no accounting, no rows: what any scheduler over this backend pays per task at
 * least, so `scheduler / floor` is the share of the backend's speed the scheduling keeps.
 */
import { ThreadsBackend, type ModuleRef, type QuantumEnd } from 'schedlab';
import { POOL_TASKS } from './piscina-pool.ts';
import type { BaselinePool, TaskName } from './pools.ts';

/** A quantum long enough that neither task is ever cut (each ends in one). */
const QUANTUM_NANOS = 1e9;

interface Pending {
  ref: ModuleRef;
  arg: unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export function createFloor(threads: number): BaselinePool {
  const backend = new ThreadsBackend({ workers: threads });
  const refs: Record<TaskName, ModuleRef> = {
    inc: { module: POOL_TASKS.href, exportName: 'inc' },
    factorial: { module: POOL_TASKS.href, exportName: 'factorial' },
  };
  const waiting: Pending[] = [];
  let head = 0;
  const running = new Map<number, Pending>();
  let nextId = 0;

  function send(workerId: number, queued: boolean): boolean {
    if (head === waiting.length) return false;
    const task = waiting[head]!;
    waiting[head++] = undefined as unknown as Pending; // let it go once sent
    if (head === waiting.length) waiting.length = head = 0;
    const splitId = nextId++;
    running.set(splitId, task);
    const work = { kernel: task.ref, input: task.arg, totalNanos: 0 };
    const dispatch = { splitId, workerId, quantumNanos: QUANTUM_NANOS, work, doneNanos: 0 };
    if (queued) backend.enqueue(dispatch);
    else backend.start(dispatch);
    return true;
  }

  function fill(): void {
    for (const id of backend.idleWorkers()) if (!send(id, false)) return;
    for (let id = 0; id < threads; id++) {
      for (let room = backend.queueRoom(id); room > 0; room--) if (!send(id, true)) return;
    }
  }

  backend.setListener({
    transientEnd: true,
    quantumEnd(end: QuantumEnd) {
      const task = running.get(end.splitId);
      running.delete(end.splitId);
      if (task !== undefined) {
        if (end.outcome === 'finished') task.resolve(end.result);
        else task.reject(new Error(`floor task ended ${end.outcome}: ${end.error ?? ''}`));
      }
      fill();
    },
  });

  return {
    runMany(name, arg, count) {
      const runs = new Array<Promise<unknown>>(count);
      const ref = refs[name];
      for (let i = 0; i < count; i++) {
        runs[i] = new Promise((resolve, reject) => waiting.push({ ref, arg, resolve, reject }));
      }
      fill();
      return Promise.all(runs);
    },
    close: () => backend.close(),
  };
}
