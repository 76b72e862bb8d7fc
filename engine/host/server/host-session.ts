/**
 * What a transport needs from a running engine session: answer a command, describe the whole
 * state for a new client, and stream frames. The browser-mode server and the Electron main
 * process both carry exactly this, nothing more.
 */
import type { CommandResult, Frame, Snapshot } from '../../../shared/protocol.ts';

/** Implemented by `Session` (engine/host/session) as is; tests may plug in their own. */
export interface HostSession<R = CommandResult, S = Snapshot, F = Frame> {
  /** Validates and applies one command; never throws for a bad command (answers `ok: false`). */
  handleCommand(command: unknown): Promise<R>;
  snapshot(): S;
  /** Frames as the session produces them; returns an unsubscribe function. */
  onFrame(listener: (frame: F) => void): () => void;
  /** Gantt spans a frame carries, so a transport can count what a slow client lost. */
  spanCount(frame: F): number;
  /**
   * The session behind was replaced (a backend switch): its clock and history start over, so
   * every client gets a fresh snapshot. Absent where that never happens.
   */
  onReset?(listener: () => void): () => void;
}

/** What a transport accepts: any session, whatever its payload types. */
export type AnyHostSession = HostSession<unknown, unknown, unknown>;
