/**
 * Which node worker stands behind each coordinator worker id. A joining node's workers take the
 * lowest free ids; a gone node's ids are freed; ids at or beyond the executor's count are spares
 * until one below it frees (`promote`).
 */
import type { FleetNode } from './fleet.ts';

export class WorkerTable {
  private readonly nodes: (FleetNode | null)[] = [];

  get length(): number {
    return this.nodes.length;
  }

  get(id: number): FleetNode | null {
    return this.nodes[id] ?? null;
  }

  /** Gives each of `node`'s workers the lowest free id (recorded in `node.workerIds`). */
  assign(node: FleetNode): void {
    for (let w = 0; w < node.record.workers; w++) {
      let id = 0;
      while (this.nodes[id] != null) id++;
      this.nodes[id] = node;
      node.workerIds.push(id);
    }
  }

  free(node: FleetNode): void {
    for (const id of node.workerIds) if (this.nodes[id] === node) this.nodes[id] = null;
    this.trim();
  }

  /**
   * Moves spare workers (ids ≥ `count`) that run nothing (`busy(id)` false) into free ids below
   * `count`, so a node that joined while the count was full replaces one that is gone. True if
   * any moved.
   */
  promote(count: number, busy: (id: number) => boolean): boolean {
    let moved = false;
    for (let id = count; id < this.nodes.length; id++) {
      const node = this.nodes[id];
      if (node == null || busy(id)) continue;
      let free = 0;
      while (free < count && this.nodes[free] != null) free++;
      if (free >= count) break;
      this.nodes[free] = node;
      this.nodes[id] = null;
      node.workerIds[node.workerIds.indexOf(id)] = free;
      moved = true;
    }
    this.trim();
    return moved;
  }

  private trim(): void {
    while (this.nodes.length > 0 && this.nodes[this.nodes.length - 1] == null) this.nodes.pop();
  }
}
