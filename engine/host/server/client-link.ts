/**
 * One connected client of a host: reads its command messages, answers each, and streams frames
 * to it without ever building a backlog (docs/design.md §6).
 *
 * Coalescing: while the socket holds more than `highWaterBytes` unsent, a new frame is not sent;
 * it waits as the one pending frame, and a newer frame replaces it (the replaced frame is counted
 * as skipped, with its spans). Each completed send re-checks, so once the client catches up it
 * receives the latest state. Memory per client is therefore one socket buffer plus one frame.
 *
 * Replies are not coalesced (each answers a command), so they count against a byte budget
 * instead: a reply that would leave more than `maxBufferedBytes` unsent — a client asking for
 * snapshots faster than it reads them — gets the client told `CLIENT_TOO_SLOW` and dropped.
 * Other clients are unaffected, and the server holds at most the budget plus one reply for it.
 * A client that gets no frame for `STALLED_AFTER_MS` while frames come (it reads nothing) is
 * dropped too, so it does not hold one of the server's places for good.
 * At most `MAX_COMMANDS_IN_FLIGHT` of a client's commands are answered at once: replies are built
 * before they are written, so the budget alone did not bound them.
 */
import { SchedLabError, type ErrorInfo } from '../../../shared/errors.ts';
import { schemaError } from '../../../shared/schema-error.ts';
import { clientMessageSchema, type Skipped } from '../../../shared/transport.ts';
import { FrameCoalescer } from './frame-coalescer.ts';
import type { AnyHostSession } from './host-session.ts';

/** The part of a `ws` WebSocket a link uses (so tests can drive a socket by hand). */
export interface LinkSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, callback: (error?: Error) => void): void;
  close(code: number, reason: string): void;
  terminate(): void;
}

export interface LinkLimits {
  /** Unsent bytes above which frames are held back and coalesced. */
  readonly highWaterBytes: number;
  /** Unsent bytes (replies included) above which the client is dropped. */
  readonly maxBufferedBytes: number;
  /** A client sent no frame this long while frames came is dropped (default `STALLED_AFTER_MS`). */
  readonly stalledAfterMs?: number;
  /** The clock (ms) the stall is measured by; `performance.now` unless a test drives it. */
  readonly now?: () => number;
}

/**
 * A client whose socket stays too full for any frame this long reads nothing: it is dropped
 * (`CLIENT_TOO_SLOW`). Coalescing kept such a client's memory bounded but not its place: 32 that
 * never read held every place a server has, and every other client was refused for good.
 */
export const STALLED_AFTER_MS = 30_000;

const OPEN = 1;
/** A client's commands answered at once; each one past it is refused `TOO_MANY_COMMANDS`. */
export const MAX_COMMANDS_IN_FLIGHT = 32;
/** A dropped client that never reads never completes the close handshake either. */
export const TERMINATE_AFTER_MS = 1000;

/** A frame serialized once for every client. */
export interface PreparedFrame {
  readonly json: string;
  readonly spans: number;
}

export class ClientLink {
  /** The one frame held back while the socket is full, and the skips (frame-coalescer.ts). */
  private readonly held = new FrameCoalescer<PreparedFrame>();
  private sentFrames = 0;
  private peakBuffered = 0;
  private dropped = false;
  /** Its commands received and not yet answered. */
  private inFlight = 0;
  private readonly now: () => number;
  /** When it last got a frame (or connected). */
  private lastFrameAt: number;

  constructor(
    private readonly socket: LinkSocket,
    private readonly session: AnyHostSession,
    private readonly limits: LinkLimits,
  ) {
    this.now = limits.now ?? (() => performance.now());
    this.lastFrameAt = this.now();
  }

  /**
   * Frames sent and skipped so far, the most bytes ever left unsent to this client, and whether
   * it was dropped for leaving too many (for tests and the host's own counters).
   */
  get stats(): { sent: number; skipped: Skipped; peakBufferedBytes: number; dropped: boolean } {
    return {
      sent: this.sentFrames,
      skipped: this.held.total,
      peakBufferedBytes: this.peakBuffered,
      dropped: this.dropped,
    };
  }

  /** The client sent a message over the limit: say so before the connection closes. */
  refuseTooLarge(limitBytes: number): void {
    this.sendError({
      code: 'MESSAGE_TOO_LARGE',
      message: `message is over the limit of ${limitBytes} bytes; the connection closes`,
      field: 'message',
    });
  }

  /**
   * A new client gets the whole state before any frame; so does every client after a backend
   * switch. Frames then count their skips from this snapshot, which the app starts its count at:
   * skips from before a switch on the same connection stayed in its "spans dropped".
   */
  sendSnapshot(): void {
    this.held.snapshotSent();
    this.write(JSON.stringify({ type: 'snapshot', snapshot: this.session.snapshot() }));
  }

  offerFrame(frame: PreparedFrame): void {
    if (this.socket.readyState !== OPEN || this.dropped) return;
    this.held.offer(frame, frame.spans);
    this.flush();
    const stalledMs = this.now() - this.lastFrameAt;
    if (this.held.holding && stalledMs > (this.limits.stalledAfterMs ?? STALLED_AFTER_MS))
      this.drop({
        code: 'CLIENT_TOO_SLOW',
        message: `read no frame for ${Math.round(stalledMs / 1000)} s; disconnected`,
        field: 'stalledAfterMs',
      });
  }

  /** Parses and answers one message; a message it cannot read gets a coded error, nothing else. */
  async receive(data: string | Buffer, isBinary: boolean): Promise<void> {
    if (isBinary) {
      this.sendError(badMessage('messages must be JSON text, not binary', 'message'));
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
    } catch {
      this.sendError(badMessage('message is not valid JSON', 'message'));
      return;
    }
    const envelope = clientMessageSchema.safeParse(parsed);
    if (!envelope.success) {
      this.sendError(
        schemaError(envelope.error, 'BAD_MESSAGE', [], 'message').toInfo(),
        readableId(parsed),
      );
      return;
    }
    const { id, command } = envelope.data;
    // Already over budget: drop before building another (possibly large) reply.
    if (this.overBudget(0)) return;
    // Messages that arrive in one chunk are all received in one turn, before any reply is
    // written (so `bufferedAmount` still reads 0): without a cap, 1,300 snapshot commands built
    // 1,300 snapshots at once and the server ran out of memory.
    if (this.inFlight >= MAX_COMMANDS_IN_FLIGHT) {
      const why = `more than ${MAX_COMMANDS_IN_FLIGHT} commands of this client are unanswered; this one is refused`;
      this.sendError({ code: 'TOO_MANY_COMMANDS', message: why, field: 'message' }, id);
      return;
    }
    let result: unknown;
    this.inFlight++;
    try {
      result = await this.session.handleCommand(command);
    } catch (e) {
      // The session answers bad commands itself; this is only for a failure inside it.
      const error =
        e instanceof SchedLabError
          ? e.toInfo()
          : { code: 'ENGINE_CLOSED' as const, message: `the engine failed: ${String(e)}` };
      this.sendError(error, id);
      return;
    } finally {
      this.inFlight--;
    }
    // Messages that arrived together were all in flight at once: the replies written meanwhile
    // may have used the budget, and serializing one more would be work for nothing.
    if (this.overBudget(0)) return;
    this.write(JSON.stringify({ type: 'reply', id, result }));
  }

  private flush(): void {
    if (!this.held.holding || this.socket.readyState !== OPEN) return;
    if (this.socket.bufferedAmount > this.limits.highWaterBytes) return;
    const { frame, skipped } = this.held.take()!;
    const skips =
      skipped === undefined
        ? ''
        : `,"skipped":{"frames":${skipped.frames},"spans":${skipped.spans}}`;
    this.sentFrames++;
    this.lastFrameAt = this.now();
    this.write(`{"type":"frame"${skips},"frame":${frame.json}}`, false);
  }

  private sendError(error: ErrorInfo, id?: number): void {
    this.write(
      JSON.stringify(id === undefined ? { type: 'error', error } : { type: 'error', id, error }),
    );
  }

  /** Frames are bounded by coalescing; everything else is checked against the budget. */
  private write(text: string, budgeted = true): void {
    if (this.socket.readyState !== OPEN || this.dropped) return;
    if (budgeted && this.overBudget(Buffer.byteLength(text))) return;
    // A completed send is the moment a held-back frame may go out.
    this.socket.send(text, () => this.flush());
    this.peakBuffered = Math.max(this.peakBuffered, this.socket.bufferedAmount);
  }

  /** True (and the client dropped) when `bytes` more would pass the budget. */
  private overBudget(bytes: number): boolean {
    if (this.dropped) return true;
    if (this.socket.bufferedAmount + bytes <= this.limits.maxBufferedBytes) return false;
    this.drop({
      code: 'CLIENT_TOO_SLOW',
      message: `more than ${this.limits.maxBufferedBytes} bytes of replies left unread; disconnected`,
      field: 'maxBufferedBytes',
    });
    return true;
  }

  /** Tells the client why (if it ever reads it) and closes; a socket that never reads is cut. */
  private drop(error: ErrorInfo): void {
    this.dropped = true;
    this.held.clear();
    this.socket.send(JSON.stringify({ type: 'error', error }), () => {});
    this.socket.close(1008, 'client too slow');
    setTimeout(() => this.socket.terminate(), TERMINATE_AFTER_MS).unref();
  }
}

function badMessage(message: string, field: string): ErrorInfo {
  return { code: 'BAD_MESSAGE', message, field };
}

function readableId(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null || !('id' in value)) return undefined;
  const id = value.id;
  return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? id : undefined;
}
