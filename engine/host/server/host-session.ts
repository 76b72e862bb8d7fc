/**
 * What a transport needs from a running engine session: answer a command, describe the whole
 * state for a new client, and stream frames. The browser-mode server and the Electron main
 * process both carry exactly this, nothing more.
 */
export interface HostSession<R = unknown, S = unknown, F = unknown> {
  /** Validates and applies one command; never throws for a bad command (answers `ok: false`). */
  handleCommand(command: unknown): Promise<R>;
  snapshot(): S;
  /** Frames as the session produces them; returns an unsubscribe function. */
  onFrame(listener: (frame: F) => void): () => void;
  /** Gantt spans a frame carries, so a transport can count what a slow client lost. */
  spanCount(frame: F): number;
}
