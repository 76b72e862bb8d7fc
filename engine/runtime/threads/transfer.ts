/**
 * What a run's `transferList` moves (engine/lib/options.ts checks it): ArrayBuffers and
 * MessagePorts. `postMessage` sends a buffer detached since (moved elsewhere) as an empty one
 * without a word, so both the check at the call and the outbox at the send look for one.
 */
import { MessagePort, type Transferable } from 'node:worker_threads';
import { SchedLabError } from '../../../shared/errors.ts';

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
  if (!Array.isArray(list)) throw bad('transferList', what);
  if (list.length > MAX_TRANSFER_LIST) {
    throw bad('transferList', `must hold at most ${MAX_TRANSFER_LIST} items`);
  }
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const field = `transferList[${i}]`;
    if (item instanceof ArrayBuffer) {
      if (isDetached(item)) throw bad(field, 'is a detached ArrayBuffer (moved already)');
    } else if (!(item instanceof MessagePort)) {
      const view = ArrayBuffer.isView(item) ? ' (a view: pass its .buffer)' : '';
      throw bad(field, `must be an ArrayBuffer or a MessagePort${view}`);
    }
  }
  if (new Set(list).size !== list.length) throw bad('transferList', 'names an item twice');
}

function bad(field: string, requirement: string): SchedLabError {
  return new SchedLabError('INVALID_ARGUMENT', `${field} ${requirement}`, field);
}
