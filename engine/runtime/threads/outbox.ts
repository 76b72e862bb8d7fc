/**
 * Messages to a backend worker, gathered for one turn of the main thread and posted as one
 * `Batch` (protocol.ts) when that turn's microtasks run: when a worker answers with many quantum
 * ends at once, the executor queues as many dispatches back, and one `postMessage` costs less
 * than each of them did alone (each call clones, locks the port and wakes the worker).
 *
 * A worker with a dispatch ring (dispatch-ring.ts; the backend's workers) gets the turn's
 * messages as records in shared memory instead, with one message of extras beside them when some
 * do not fit a record; a ring too full for them all keeps the rest here, in order, and tries again
 * shortly (`RETRY_MS`: only when far more than a worker can queue is waiting, e.g. many `drop`s).
 *
 * A message that cannot be cloned (a run's input holding a function) fails the batch's post;
 * the batch is then posted one message at a time, so only the dispatch at fault fails
 * (`unclonable`), as it did when each was posted alone. A run's `transferList` (transfer.ts)
 * moves its buffers in that message; a buffer moved away since the call fails its run alone.
 */
import type { Transferable } from 'node:worker_threads';
import type { Dispatch } from '../backend.ts';
import type { RingWriter } from './dispatch-ring.ts';
import { fitsRecord } from './ring-slots.ts';
import { detachedAt } from './transfer.ts';
import type { PoolWorker, Ticket } from './pool-worker.ts';
import type { ModuleCall, ModuleRefMessage, ToQuantumWorker } from './protocol.ts';

type Item = Exclude<ToQuantumWorker, { type: 'batch' } | { type: 'calls' }>;

/** How soon a ring that was full is tried again (ms). */
const RETRY_MS = 1;

interface Box {
  items: Item[];
  dispatches: (Dispatch | null)[];
  /** What each item moves rather than copies (a library run's `transferList`), if anything. */
  transfers: (readonly Transferable[] | undefined)[];
}

export class Outbox {
  private readonly pending = new Map<PoolWorker, Box>();
  /** Workers whose ring had calls written straight into it this turn (`call`), to publish. */
  private readonly written: PoolWorker[] = [];
  private scheduled = false;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(
    /** Whether `worker` still holds a worker (a lost one's messages are dropped). */
    private readonly live: (worker: PoolWorker) => boolean,
    /** `dispatch`'s message could not be cloned: it never reached the worker. */
    private readonly unclonable: (worker: PoolWorker, dispatch: Dispatch, error: unknown) => void,
  ) {}

  /**
   * Queues `message` for `worker`'s thread; `dispatch`: the dispatch it carries, if any;
   * `transfer`: what it moves rather than copies.
   */
  send(
    worker: PoolWorker,
    message: Item,
    dispatch: Dispatch | null,
    transfer?: readonly Transferable[],
  ): void {
    let box = this.pending.get(worker);
    if (box === undefined) {
      box = { items: [], dispatches: [], transfers: [] };
      this.pending.set(worker, box);
    }
    box.items.push(message);
    box.dispatches.push(dispatch);
    box.transfers.push(transfer);
    this.schedule();
  }

  /**
   * Queues `dispatch`'s module call (module `moduleId`, `input`, `ticket`) for `worker`'s thread.
   * A call whose input fits a ring record is written straight into the worker's ring when nothing
   * for that worker waits here ahead of it: no message array, no box (published at the end of the
   * turn with everything else).
   */
  call(
    worker: PoolWorker,
    dispatch: Dispatch,
    moduleId: number,
    input: unknown,
    ticket: Ticket | undefined,
    transfer?: readonly Transferable[],
  ): void {
    const ring = worker.ring;
    const word = ticket === undefined ? -1 : ticket.word;
    const value = ticket === undefined ? 0 : ticket.value;
    if (
      ring === null ||
      transfer !== undefined ||
      !fitsRecord(input) ||
      this.pending.has(worker) ||
      ring.room() <= 0
    ) {
      const message: ModuleCall = [
        dispatch.splitId,
        dispatch.quantumNanos,
        moduleId,
        input,
        word,
        value,
      ];
      this.send(worker, message, dispatch, transfer);
      return;
    }
    ring.writeCall(dispatch.splitId, dispatch.quantumNanos, moduleId, input, word, value);
    if (!this.written.includes(worker)) this.written.push(worker);
    this.schedule();
  }

  private schedule(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(() => this.flush());
    }
  }

  /** Posts everything gathered (also called before anything must reach a worker at once). */
  flush(): void {
    this.scheduled = false;
    // Calls written straight into a ring come before anything boxed for that worker since.
    for (const worker of this.written) if (this.live(worker)) worker.ring!.publish();
    this.written.length = 0;
    if (this.pending.size === 0) return;
    const boxes = [...this.pending];
    this.pending.clear();
    for (const [worker, box] of boxes) {
      if (!this.live(worker)) continue;
      if (worker.ring !== null) {
        this.write(worker, worker.ring, box);
        continue;
      }
      const { items, transfers } = box;
      if (anyDetached(transfers)) {
        this.postEach(worker, box);
        continue;
      }
      try {
        worker.host.post(items.length === 1 ? items[0] : pack(items), joined(transfers));
      } catch {
        this.postEach(worker, box);
      }
    }
  }

  /**
   * Takes the `drop`s gathered and not yet sent (the backend is closing: they are sent on their
   * own, the rest is not).
   */
  takeDrops(): { worker: PoolWorker; splitId: number }[] {
    const out: { worker: PoolWorker; splitId: number }[] = [];
    for (const [worker, box] of this.pending) {
      for (const item of box.items) {
        if ('type' in item && item.type === 'drop') out.push({ worker, splitId: item.splitId });
      }
    }
    return out;
  }

  /** Drops what is gathered (the backend is closing). */
  clear(): void {
    this.pending.clear();
    this.written.length = 0;
    clearTimeout(this.retry);
    this.retry = undefined;
  }

  /** Writes what fits into `worker`'s ring; what does not waits here, ahead of later messages. */
  private write(worker: PoolWorker, ring: RingWriter, box: Box): void {
    const fit = Math.min(box.items.length, ring.room());
    const items = box.items.splice(0, fit);
    const dispatches = box.dispatches.splice(0, fit);
    const transfers = box.transfers.splice(0, fit);
    if (box.items.length > 0) {
      this.pending.set(worker, box);
      this.retry ??= setTimeout(() => {
        this.retry = undefined;
        this.flush();
      }, RETRY_MS);
    }
    if (items.length === 0) return;
    if (anyDetached(transfers)) {
      this.writeEach(worker, ring, items, dispatches, transfers);
      return;
    }
    try {
      ring.send(items, ring.extrasOf(items), joined(transfers));
    } catch {
      if (transfers.some((t) => t !== undefined)) {
        this.writeEach(worker, ring, items, dispatches, transfers);
        return;
      }
      // One cannot be cloned: drop each at fault (its dispatch fails), send the others.
      for (let i = items.length - 1; i >= 0; i--) {
        const extra = ring.extrasOf([items[i]!]);
        if (extra.length === 0) continue;
        try {
          structuredClone(extra);
        } catch (error) {
          items.splice(i, 1);
          const dispatch = dispatches.splice(i, 1)[0];
          if (dispatch !== null && dispatch !== undefined) this.unclonable(worker, dispatch, error);
        }
      }
      ring.send(items, ring.extrasOf(items));
    }
  }

  private postEach(worker: PoolWorker, box: Box): void {
    const { items, dispatches, transfers } = box;
    for (let i = 0; i < items.length; i++) {
      const dispatch = dispatches[i] ?? null;
      const transfer = transfers[i];
      try {
        if (transfer !== undefined && detachedAt(transfer) >= 0) throw detachedError(transfer);
        worker.host.post(items[i], transfer);
      } catch (error) {
        if (dispatch !== null) this.unclonable(worker, dispatch, error);
      }
    }
  }

  /**
   * Sends ring items one at a time, so only those at fault fail: a batch that moves buffers can
   * fail for two runs naming one buffer (the second finds it moved), which no single item shows.
   */
  private writeEach(
    worker: PoolWorker,
    ring: RingWriter,
    items: Item[],
    dispatches: (Dispatch | null)[],
    transfers: (readonly Transferable[] | undefined)[],
  ): void {
    for (let i = 0; i < items.length; i++) {
      const dispatch = dispatches[i] ?? null;
      const transfer = transfers[i];
      try {
        if (transfer !== undefined && detachedAt(transfer) >= 0) throw detachedError(transfer);
        ring.send([items[i]!], ring.extrasOf([items[i]!]), transfer);
      } catch (error) {
        if (dispatch !== null) this.unclonable(worker, dispatch, error);
      }
    }
  }
}

/**
 * Whether an item moves a buffer detached since its run was queued: `postMessage` would send it
 * empty without a word, so such an item is failed instead, alone.
 */
function anyDetached(transfers: readonly (readonly Transferable[] | undefined)[]): boolean {
  for (const t of transfers) if (t !== undefined && detachedAt(t) >= 0) return true;
  return false;
}

function detachedError(transfer: readonly Transferable[]): Error {
  return new Error(
    `transferList[${detachedAt(transfer)}] was detached (moved elsewhere) before the run was sent`,
  );
}

/** Every item's transfers as one list for one post, or undefined when none moves anything. */
function joined(
  transfers: readonly (readonly Transferable[] | undefined)[],
): Transferable[] | undefined {
  let all: Transferable[] | undefined;
  for (const t of transfers) if (t !== undefined) (all ??= []).push(...t);
  return all;
}

/** `items` as one message: `Calls` when they are module refs and calls only, else a `Batch`. */
function pack(items: Item[]): ToQuantumWorker {
  const refs: ModuleRefMessage[] = [];
  const calls: unknown[] = [];
  for (const item of items) {
    if (isCall(item)) {
      for (let i = 0; i < item.length; i++) calls.push(item[i]);
    } else if (item.type === 'ref') refs.push(item);
    else return { type: 'batch', items };
  }
  return { type: 'calls', refs, calls };
}

function isCall(item: Item): item is ModuleCall {
  return Array.isArray(item);
}
