/**
 * What a job table needs to say about an ended job beyond its state: why it failed, was
 * cancelled or rejected (`error`, `errorCode`), and what a one-split user-module job returned
 * (`result`, as short JSON). The executor hands these to `onJobEnd` listeners once and keeps none
 * of them (a result may be large); this keeps a short text of each for the last `capacity` ended
 * jobs — at least as many as the rows a frame lists — and adds it to those rows.
 */
import { JOB_ROW_TEXT_MAX, type JobRow } from '../../../shared/protocol.ts';
import type { JobEnd } from '../../runtime/executor/index.ts';

type Outcome = Pick<JobRow, 'error' | 'errorCode' | 'result'>;

/** `text` cut to `max` characters, the last one `…` when something was cut. */
export function clip(text: string, max = JOB_ROW_TEXT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A result as JSON, at most `max` characters. Results arrive by structured clone, so they may
 * hold what JSON cannot (a BigInt, a cycle, a Map): those render as `String(value)` or a note,
 * never an exception in the frame loop.
 */
export function resultText(value: unknown, max = JOB_ROW_TEXT_MAX): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    try {
      text = String(value);
    } catch {
      text = '(result cannot be shown)';
    }
  }
  return clip(text, max);
}

export class JobOutcomes {
  /** By job id, in end order (a Map iterates in insertion order: the first key is the oldest). */
  private readonly byJob = new Map<number, Outcome>();

  constructor(private readonly capacity: number) {}

  /** Number of ended jobs whose outcome is held (never above `capacity`). */
  get size(): number {
    return this.byJob.size;
  }

  onJobEnd(e: JobEnd): void {
    if (this.capacity <= 0) return;
    const outcome: Outcome = {};
    if (e.error !== undefined) outcome.error = clip(e.error);
    if (e.errorCode !== undefined) outcome.errorCode = e.errorCode;
    if (e.result !== undefined) outcome.result = resultText(e.result);
    if (Object.keys(outcome).length === 0) return;
    this.byJob.set(e.jobId, outcome);
    if (this.byJob.size > this.capacity) {
      this.byJob.delete(this.byJob.keys().next().value!);
    }
  }

  /** `rows` with each ended job's outcome added (new objects; the executor's rows are kept as they are). */
  decorate(rows: JobRow[]): JobRow[] {
    if (this.byJob.size === 0) return rows;
    return rows.map((row) => {
      if (row.state === 'running') return row;
      const outcome = this.byJob.get(row.id);
      return outcome === undefined ? row : { ...row, ...outcome };
    });
  }
}
