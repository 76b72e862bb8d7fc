/**
 * Graph spans waiting for the next frame, on the one span ring (`shared/lib/span-ring.ts`): a
 * frame that comes late loses the oldest spans, counted in `dropped`; draining copies them into
 * the frame's columns next to the executor's spans. In a frame a graph span's `job` is the run's
 * job id, `task` the graph's index in the run, `split` the node index, `level` 0, `cls` the run's
 * name and `node` the node's id (both interned); the ring keeps the graph and node indexes only
 * and the ids are looked up when copied.
 */
import type { SpanColumns } from '../../../shared/protocol.ts';
import { outcomeIndex } from '../../../shared/lib/outcomes.ts';
import { SpanRing } from '../../../shared/lib/span-ring.ts';
import type { QuantumOutcome } from '../../runtime/backend.ts';

export interface BufferedSpan {
  readonly graph: number;
  readonly node: number;
  readonly workerId: number;
  readonly startNanos: number;
  readonly endNanos: number;
  readonly outcome: QuantumOutcome;
}

/** A node's id from its graph's index in the run and its own index. */
export type NodeIdOf = (graph: number, node: number) => string;

export class SpanBuffer {
  private readonly ring: SpanRing;
  /** Lost before the last drain, plus what the executor dropped before handing spans over. */
  private lost = 0;

  constructor(capacity: number) {
    this.ring = new SpanRing(capacity);
  }

  /** Spans lost because no frame took them in time (cumulative, across drains). */
  get dropped(): number {
    return this.lost + this.ring.dropped;
  }

  /** Counts spans lost before they reached this buffer (a stealing run's unsampled ones). */
  addDropped(count: number): void {
    this.lost += count;
  }

  push(s: BufferedSpan): void {
    this.ring.record(
      s.workerId,
      s.startNanos,
      s.endNanos,
      0,
      s.graph,
      s.node,
      0,
      outcomeIndex(s.outcome),
      0,
    );
  }

  /** Pushes every buffered span, oldest first, into `other`. */
  copyTo(other: SpanBuffer): void {
    const r = this.ring;
    for (let k = 0; k < r.size; k++) {
      const i = r.slot(k);
      other.ring.record(
        r.worker[i]!,
        r.start[i]!,
        r.end[i]!,
        0,
        r.task[i]!,
        r.split[i]!,
        0,
        r.outcome[i]!,
        0,
      );
    }
  }

  /** Moves every buffered span into `columns` (whose other spans get node −1). */
  drainInto(columns: SpanColumns, runName: string, jobId: number, nodeId: NodeIdOf): void {
    this.copyInto(columns, runName, jobId, nodeId);
    this.lost += this.ring.dropped;
    this.ring.clear();
  }

  /** Adds the buffered spans, oldest first, to `columns` and keeps them. */
  copyInto(columns: SpanColumns, runName: string, jobId: number, nodeId: NodeIdOf): void {
    const intern = nameInterner(columns);
    const node = columns.node ?? new Array<number>(columns.count).fill(-1);
    const cls = intern(runName);
    const r = this.ring;
    for (let k = 0; k < r.size; k++) {
      const i = r.slot(k);
      const graph = r.task[i]!;
      const index = r.split[i]!;
      columns.worker.push(r.worker[i]!);
      columns.start.push(r.start[i]!);
      columns.end.push(r.end[i]!);
      columns.job.push(jobId);
      columns.task.push(graph);
      columns.split.push(index);
      columns.level.push(0);
      columns.outcome.push(r.outcome[i]!);
      columns.cls.push(cls);
      node.push(intern(nodeId(graph, index)));
      columns.count++;
    }
    columns.node = node;
  }
}

/** Interns a name into `columns.names`, adding it once: its index there. */
export function nameInterner(columns: SpanColumns): (name: string) => number {
  const names = new Map(columns.names.map((n, i) => [n, i]));
  return (name) => {
    let i = names.get(name);
    if (i === undefined) {
      i = columns.names.push(name) - 1;
      names.set(name, i);
    }
    return i;
  };
}
