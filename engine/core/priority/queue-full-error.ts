import { SchedLabError } from '../../../shared/errors.ts';

/** A push beyond `maxQueued` (docs/design.md §3.2): rejected loudly, counted, never dropped silently. */
export class QueueFullError extends SchedLabError {
  readonly maxQueued: number;

  constructor(maxQueued: number) {
    super('QUEUE_FULL', `queue is full: maxQueued is ${maxQueued}`, 'maxQueued');
    this.name = 'QueueFullError';
    this.maxQueued = maxQueued;
  }
}
