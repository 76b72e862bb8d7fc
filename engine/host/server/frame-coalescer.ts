/**
 * The one frame a slow reader is owed: while a client cannot take a frame (its socket is full,
 * or its page has not acknowledged the frames before), a new frame waits here and a newer one
 * replaces it, the replaced one counted as skipped with its spans. The WebSocket link
 * (client-link.ts) and the desktop app's frame port (electron/frame-port.ts) hold their
 * clients' backlog to this one frame. Skips are counted from the last snapshot, which the app
 * starts its "spans dropped" from.
 */
import type { Skipped } from '../../../shared/transport.ts';

export class FrameCoalescer<F> {
  private pending: F | undefined;
  private pendingSpans = 0;
  private readonly skipped: Skipped = { frames: 0, spans: 0 };
  /** `skipped` when the last snapshot was sent. */
  private readonly atSnapshot: Skipped = { frames: 0, spans: 0 };

  /** Frames and spans skipped since the client connected. */
  get total(): Skipped {
    return { ...this.skipped };
  }

  get holding(): boolean {
    return this.pending !== undefined;
  }

  /** `frame` (carrying `spans` Gantt spans) replaces the one held, which is skipped. */
  offer(frame: F, spans: number): void {
    if (this.pending !== undefined) {
      this.skipped.frames++;
      this.skipped.spans += this.pendingSpans;
    }
    this.pending = frame;
    this.pendingSpans = spans;
  }

  /** The frame held, to send now, and the skips since the snapshot (none: undefined). */
  take(): { frame: F; skipped: Skipped | undefined } | undefined {
    const frame = this.pending;
    if (frame === undefined) return undefined;
    this.pending = undefined;
    const frames = this.skipped.frames - this.atSnapshot.frames;
    const spans = this.skipped.spans - this.atSnapshot.spans;
    return { frame, skipped: frames === 0 ? undefined : { frames, spans } };
  }

  /** A snapshot went out: it brings what the held frame would have, and skips count anew. */
  snapshotSent(): void {
    this.pending = undefined;
    this.atSnapshot.frames = this.skipped.frames;
    this.atSnapshot.spans = this.skipped.spans;
  }

  /** The client is gone: nothing is held for it. */
  clear(): void {
    this.pending = undefined;
  }
}
