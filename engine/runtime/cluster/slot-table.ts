/**
 * Which node slot stands behind each coordinator worker id. A joining node's slots take the
 * lowest free ids; a gone node's ids are freed; ids at or beyond the executor's count are spares
 * until one below it frees (`promote`).
 */
import type { FleetNode } from './fleet.ts';

export class SlotTable {
  private readonly slots: (FleetNode | null)[] = [];

  get length(): number {
    return this.slots.length;
  }

  get(id: number): FleetNode | null {
    return this.slots[id] ?? null;
  }

  /** Gives each of `node`'s slots the lowest free id (recorded in `node.workerIds`). */
  assign(node: FleetNode): void {
    for (let slot = 0; slot < node.record.slots; slot++) {
      let id = 0;
      while (this.slots[id] != null) id++;
      this.slots[id] = node;
      node.workerIds.push(id);
    }
  }

  free(node: FleetNode): void {
    for (const id of node.workerIds) if (this.slots[id] === node) this.slots[id] = null;
    this.trim();
  }

  /**
   * Moves spare slots (ids ≥ `count`) that run nothing (`busy(id)` false) into free ids below
   * `count`, so a node that joined while the count was full replaces one that is gone. True if
   * any moved.
   */
  promote(count: number, busy: (id: number) => boolean): boolean {
    let moved = false;
    for (let id = count; id < this.slots.length; id++) {
      const node = this.slots[id];
      if (node == null || busy(id)) continue;
      let free = 0;
      while (free < count && this.slots[free] != null) free++;
      if (free >= count) break;
      this.slots[free] = node;
      this.slots[id] = null;
      node.workerIds[node.workerIds.indexOf(id)] = free;
      moved = true;
    }
    this.trim();
    return moved;
  }

  private trim(): void {
    while (this.slots.length > 0 && this.slots[this.slots.length - 1] == null) this.slots.pop();
  }
}
