/**
 * Graph spans waiting for the next frame: a bounded ring (a frame that comes late loses the
 * oldest spans, counted in `dropped`), drained into the frame's columns next to the executor's
 * spans. A graph span's `job` is the run's job id, `task` the graph's index in the run, `split`
 * the node index, `level` 0, `cls` the run's name, and `node` the node's id (both interned).
 */
import { SPAN_OUTCOMES, type SpanColumns } from '../../../shared/protocol.ts';
import { Ring } from '../../../shared/lib/ring.ts';
import type { QuantumOutcome } from '../../runtime/backend.ts';

export interface BufferedSpan {
  readonly graph: number;
  readonly node: number;
  readonly nodeId: string;
  readonly workerId: number;
  readonly startNanos: number;
  readonly endNanos: number;
  readonly outcome: QuantumOutcome;
}

export class SpanBuffer {
  private readonly ring: Ring<BufferedSpan>;
  /** Spans lost because no frame took them in time (cumulative, across drains). */
  dropped = 0;

  constructor(readonly capacity: number) {
    this.ring = new Ring(capacity);
  }

  push(span: BufferedSpan): void {
    if (this.ring.size === this.capacity) this.dropped++;
    this.ring.push(span);
  }

  forEach(fn: (span: BufferedSpan) => void): void {
    for (let k = 0; k < this.ring.size; k++) fn(this.ring.at(k)!);
  }

  /** Moves every buffered span into `columns` (whose other spans get node −1). */
  drainInto(columns: SpanColumns, runName: string, jobId: number): void {
    this.copyInto(columns, runName, jobId);
    this.ring.clear();
  }

  /** Adds the buffered spans, oldest first, to `columns` and keeps them. */
  copyInto(columns: SpanColumns, runName: string, jobId: number): void {
    const names = new Map(columns.names.map((n, i) => [n, i]));
    const intern = (name: string) => {
      let i = names.get(name);
      if (i === undefined) {
        i = columns.names.push(name) - 1;
        names.set(name, i);
      }
      return i;
    };
    const node = columns.node ?? new Array<number>(columns.count).fill(-1);
    const cls = intern(runName);
    for (let k = 0; k < this.ring.size; k++) {
      const s = this.ring.at(k)!;
      columns.worker.push(s.workerId);
      columns.start.push(s.startNanos);
      columns.end.push(s.endNanos);
      columns.job.push(jobId);
      columns.task.push(s.graph);
      columns.split.push(s.node);
      columns.level.push(0);
      columns.outcome.push(SPAN_OUTCOMES.indexOf(s.outcome));
      columns.cls.push(cls);
      node.push(intern(s.nodeId));
      columns.count++;
    }
    columns.node = node;
  }
}
