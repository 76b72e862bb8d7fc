/**
 * The executor's recent events, bounded (memory is bounded by design): a reader keeps a cursor
 * (total written so far) and what the ring overwrote before the reader got to it is reported as
 * dropped, never silently lost. Its spans are the one span ring, `shared/lib/span-ring.ts`.
 */
import type { EngineEvent } from '../../../shared/protocol.ts';
import { Ring } from '../../../shared/lib/ring.ts';

/** The last `capacity` engine events, for frames (a burst between two frames is counted, like spans). */
export class EventRing extends Ring<EngineEvent> {
  constructor(capacity = 1024) {
    super(capacity);
  }
}
