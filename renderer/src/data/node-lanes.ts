/**
 * The per-node view of the cluster backend (docs/design.md §7): when the latest frame's workers
 * carry a node name (`WorkerRow.node`), the Gantt orders its lanes node by node under a header
 * per node, and the workers panel lists them the same way. A worker id belongs to a node *now*
 * (the coordinator gives a joining node the lowest free ids), so a lane is filed under the node
 * its id belongs to in the latest frame; its older spans may have run on a node that has left.
 * When no worker carries a node (threads, sim) both derivations return null: nothing changes.
 */
import type { WorkerRow } from '../../../shared/protocol.ts';

export interface NodeGroup {
  /** The node's name; null for ids no node stands behind now (waiting for one, or gone). */
  node: string | null;
  /** Its workers, by id. */
  workers: WorkerRow[];
}

/** Node names in the order a reader looks for them: `node2` before `node10`. */
function byName(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/**
 * The workers grouped by node, nodes by name, workers by id, the ids without a node last; null
 * when no worker carries a node.
 */
export function workerGroups(workers: readonly WorkerRow[]): NodeGroup[] | null {
  if (!workers.some((w) => w.node !== undefined)) return null;
  const byNode = new Map<string | null, WorkerRow[]>();
  for (const w of workers) {
    const key = w.node ?? null;
    const list = byNode.get(key);
    if (list === undefined) byNode.set(key, [w]);
    else list.push(w);
  }
  const named = [...byNode.keys()].filter((k): k is string => k !== null).sort(byName);
  const keys: (string | null)[] = byNode.has(null) ? [...named, null] : named;
  return keys.map((node) => ({
    node,
    workers: [...byNode.get(node)!].sort((a, b) => a.id - b.id),
  }));
}

/** `3 workers`, `1 worker`. */
export function workersText(n: number): string {
  return `${n} ${n === 1 ? 'worker' : 'workers'}`;
}

/** What a group is called: its node's name, or `no node`. */
export function nodeText(node: string | null): string {
  return node ?? 'no node';
}

/** Longest node name a lane label carries whole (the header above it has the full name). */
const LABEL_NAME_CHARS = 12;

function shortName(node: string): string {
  return node.length <= LABEL_NAME_CHARS ? node : `${node.slice(0, LABEL_NAME_CHARS - 1)}…`;
}

/** A workers-panel group's heading: `a · 3 workers · 2 running` (running = running or retiring). */
export function groupText(g: NodeGroup): string {
  const running = g.workers.filter((w) => w.state === 'running' || w.state === 'retiring').length;
  return `${nodeText(g.node)} · ${workersText(g.workers.length)} · ${running} running`;
}

export interface LaneHeader {
  /** The row (from the top, in lanes) the header sits above. */
  row: number;
  node: string | null;
  /** The lanes under it. */
  lanes: number;
  /** `a · 3 workers`. */
  text: string;
}

export interface LaneGroups {
  /** Lanes (worker ids) from the top down, node by node. */
  order: number[];
  /** Per lane (worker id): its row from the top. */
  rowOf: number[];
  /** Per lane: `a · worker 3`, or `worker 3` for a lane no node stands behind. */
  labels: string[];
  /** One header per group, top down. */
  headers: LaneHeader[];
}

/**
 * The Gantt's `lanes` lanes (worker ids 0…lanes−1, as `laneLayout` counts them) grouped by the
 * node of each id in `workers`; lanes with no row there (former workers still in view) or no
 * node go to the last group, `no node`. A header counts the lanes under it. Null when no worker
 * carries a node: the lanes stay in id order with no header.
 */
export function laneGroups(workers: readonly WorkerRow[], lanes: number): LaneGroups | null {
  // Called on every Gantt draw: the threads and sim backends leave here without allocating.
  if (!workers.some((w) => w.node !== undefined)) return null;
  const groups = workerGroups(workers.filter((w) => w.id >= 0 && w.id < lanes));
  if (groups === null) return null;
  const placed = new Set<number>();
  for (const g of groups) for (const w of g.workers) if (w.node !== undefined) placed.add(w.id);
  const named = groups.filter((g) => g.node !== null);
  const rest: number[] = [];
  for (let lane = 0; lane < lanes; lane++) if (!placed.has(lane)) rest.push(lane);
  const lists: [string | null, number[]][] = named.map((g) => [g.node, g.workers.map((w) => w.id)]);
  if (rest.length > 0) lists.push([null, rest]);

  const order: number[] = [];
  const rowOf = new Array<number>(lanes).fill(0);
  const labels = new Array<string>(lanes).fill('');
  const headers: LaneHeader[] = [];
  for (const [node, ids] of lists) {
    headers.push({
      row: order.length,
      node,
      lanes: ids.length,
      text: `${nodeText(node)} · ${workersText(ids.length)}`,
    });
    for (const id of ids) {
      rowOf[id] = order.length;
      labels[id] = node === null ? `worker ${id}` : `${shortName(node)} · worker ${id}`;
      order.push(id);
    }
  }
  return { order, rowOf, labels, headers };
}
