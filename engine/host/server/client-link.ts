/**
 * One connected client of a host: reads its command messages, answers each, and streams frames
 * to it without ever building a backlog (docs/design.md §6).
 *
 * Coalescing: while the socket holds more than `highWaterBytes` unsent, a new frame is not sent;
 * it waits as the one pending frame, and a newer frame replaces it (the replaced frame is counted
 * as skipped, with its spans). Each completed send re-checks, so once the client catches up it
 * receives the latest state. Memory per client is therefore one socket buffer plus one frame.
 */
import { SchedLabError, type ErrorInfo } from '../../../shared/errors.ts';
import { schemaError } from '../../../shared/schema-error.ts';
import { clientMessageSchema, type Skipped } from '../../../shared/transport.ts';
import type { AnyHostSession } from './host-session.ts';

/** The part of a `ws` WebSocket a link uses (so tests can drive a socket by hand). */
export interface LinkSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string, callback: (error?: Error) => void): void;
}

const OPEN = 1;

/** A frame serialized once for every client. */
export interface PreparedFrame {
  readonly json: string;
  readonly spans: number;
}

export class ClientLink {
  private pending: PreparedFrame | undefined;
  private readonly skipped: Skipped = { frames: 0, spans: 0 };
  private sentFrames = 0;

  constructor(
    private readonly socket: LinkSocket,
    private readonly session: AnyHostSession,
    private readonly highWaterBytes: number,
  ) {}

  /** Frames sent and frames skipped so far (for tests and the host's own counters). */
  get stats(): { sent: number; skipped: Skipped } {
    return { sent: this.sentFrames, skipped: { ...this.skipped } };
  }

  /** A new client gets the whole state before any frame. */
  sendSnapshot(): void {
    this.write(JSON.stringify({ type: 'snapshot', snapshot: this.session.snapshot() }));
  }

  offerFrame(frame: PreparedFrame): void {
    if (this.socket.readyState !== OPEN) return;
    if (this.pending !== undefined) this.skip(this.pending);
    this.pending = frame;
    this.flush();
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
    let result: unknown;
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
    }
    this.write(JSON.stringify({ type: 'reply', id, result }));
  }

  private flush(): void {
    const frame = this.pending;
    if (frame === undefined || this.socket.readyState !== OPEN) return;
    if (this.socket.bufferedAmount > this.highWaterBytes) return;
    this.pending = undefined;
    const skipped =
      this.skipped.frames === 0
        ? ''
        : `,"skipped":{"frames":${this.skipped.frames},"spans":${this.skipped.spans}}`;
    this.sentFrames++;
    this.write(`{"type":"frame"${skipped},"frame":${frame.json}}`);
  }

  private skip(frame: PreparedFrame): void {
    this.skipped.frames++;
    this.skipped.spans += frame.spans;
  }

  private sendError(error: ErrorInfo, id?: number): void {
    this.write(
      JSON.stringify(id === undefined ? { type: 'error', error } : { type: 'error', id, error }),
    );
  }

  private write(text: string): void {
    if (this.socket.readyState !== OPEN) return;
    // A completed send is the moment a held-back frame may go out.
    this.socket.send(text, () => this.flush());
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
