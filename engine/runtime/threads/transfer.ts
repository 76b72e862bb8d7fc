/**
 * What a run's `transferList` moves (engine/lib/options.ts checks it): ArrayBuffers and
 * MessagePorts. `postMessage` sends a buffer detached since (moved elsewhere) as an empty one
 * without a word, so both the check at the call and the outbox at the send look for one.
 */
import { MessagePort, type Transferable } from 'node:worker_threads';
import { invalidArgument } from '../../../shared/errors.ts';

/** What a run may move: `postMessage`'s transferables. */
export type TransferItem = Transferable;

/** Most items one run's `transferList` holds. */
export const MAX_TRANSFER_LIST = 1024;

/** Node 20 has no `ArrayBuffer.prototype.detached`: a view on a detached buffer cannot be made. */
export function isDetached(buffer: ArrayBuffer): boolean {
  if (buffer.byteLength > 0) return false;
  try {
    new Uint8Array(buffer);
    return false;
  } catch {
    return true;
  }
}

/** The index of the first detached ArrayBuffer in `transfer`, or −1. */
export function detachedAt(transfer: readonly Transferable[]): number {
  for (let i = 0; i < transfer.length; i++) {
    const item = transfer[i];
    if (item instanceof ArrayBuffer && isDetached(item)) return i;
  }
  return -1;
}

/**
 * ArrayBuffers and MessagePorts, each once, none moved already: `postMessage` would throw for the
 * others later, on a worker's whole batch, and sends a detached buffer empty without a word.
 */
export function checkTransferList(list: unknown): void {
  const what = 'must be an array of ArrayBuffers and MessagePorts';
  if (!Array.isArray(list)) throw invalidArgument('transferList', what);
  if (list.length > MAX_TRANSFER_LIST) {
    throw invalidArgument('transferList', `must hold at most ${MAX_TRANSFER_LIST} items`);
  }
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const field = `transferList[${i}]`;
    if (item instanceof ArrayBuffer) {
      if (isDetached(item))
        throw invalidArgument(field, 'is a detached ArrayBuffer (moved already)');
    } else if (!(item instanceof MessagePort)) {
      const view = ArrayBuffer.isView(item) ? ' (a view: pass its .buffer)' : '';
      throw invalidArgument(field, `must be an ArrayBuffer or a MessagePort${view}`);
    }
  }
  if (new Set(list).size !== list.length)
    throw invalidArgument('transferList', 'names an item twice');
}

// ─── results a task moves back (`ctx.move`, Piscina's `move`) ─────────────────────────────────

/**
 * The keys of Piscina's `Transferable` wrapper (`Piscina.move(value)` returns one): global
 * symbols, so a task file written for Piscina that returns `move(buffer)` moves here too.
 */
const K_TRANSFERABLE = Symbol.for('Piscina.transferable');
const K_VALUE = Symbol.for('Piscina.valueOf');

/** A result that moves its buffer back rather than copying it. */
interface Moved {
  readonly [K_TRANSFERABLE]: Transferable | readonly Transferable[];
  readonly [K_VALUE]: unknown;
}

/**
 * `value` wrapped so that returning it from a task moves its buffer to the caller: an
 * ArrayBuffer, a view on one (its whole `.buffer` moves; the caller gets the view) or a
 * MessagePort. Anything else is a TypeError naming what it takes.
 */
export function moved<T>(value: T): T {
  let transfer: Transferable;
  if (value instanceof ArrayBuffer || value instanceof MessagePort) transfer = value;
  else if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer)
    transfer = value.buffer;
  else {
    throw new TypeError(
      'ctx.move takes an ArrayBuffer, a typed array or DataView on one, or a MessagePort',
    );
  }
  const wrapper: Moved = { [K_TRANSFERABLE]: transfer, [K_VALUE]: value };
  return wrapper as T;
}

/** Whether `value` is wrapped to move (`moved`, Piscina's `move`). */
export function isMoved(value: unknown): boolean {
  return typeof value === 'object' && value !== null && K_TRANSFERABLE in value;
}

/** What a task returned, unwrapped: its value, and what it moves when it was wrapped. */
export function unwrapMoved(result: unknown): { value: unknown; transfer?: Transferable[] } {
  if (!isMoved(result)) return { value: result };
  const wrapper = result as Moved;
  const t = wrapper[K_TRANSFERABLE];
  return { value: wrapper[K_VALUE], transfer: Array.isArray(t) ? [...t] : [t as Transferable] };
}
