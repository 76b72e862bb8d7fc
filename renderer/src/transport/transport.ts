/**
 * The one interface the renderer talks to. It never knows which host it is in: browser mode
 * (WebSocket) and Electron (preload bridge + MessagePort) both implement it, and so does the
 * bench's injection transport.
 */
import type { Command, CommandResult, Frame, Snapshot } from '../../../shared/protocol.ts';
import type { Skipped } from '../../../shared/transport.ts';

/**
 * `ended`: the host refused this page's token (a restarted server has a new one); reconnecting
 * cannot help, so the transport stops trying and the UI says how to open the new session.
 */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'ended';

/**
 * Commands of the live view's contract (`cancelAll` → `{cancelled}`, `resetStats`) that a host
 * may not know yet: such a host answers with a coded error, which the UI shows as it is.
 */
export type LiveCommand = { type: 'cancelAll' } | { type: 'resetStats' };
/** What the renderer sends: the protocol's commands plus `LiveCommand`. */
export type ClientCommand = Command | LiveCommand;

export interface Transport {
  readonly host: 'electron' | 'browser' | 'bench';
  send(command: ClientCommand): Promise<CommandResult>;
  onFrame(cb: (frame: Frame, skipped?: Skipped) => void): () => void;
  onSnapshot(cb: (snapshot: Snapshot) => void): () => void;
  onStatus(cb: (status: ConnectionStatus) => void): () => void;
  close(): void;
}

/** What a command resolves to when it cannot reach the host at all. */
export function disconnected(message = 'not connected to the engine'): CommandResult {
  return { ok: false, error: { code: 'ENGINE_CLOSED', message } };
}

/** Listener bookkeeping shared by every transport. */
export class Listeners<T extends unknown[]> {
  private readonly set = new Set<(...args: T) => void>();
  add(cb: (...args: T) => void): () => void {
    this.set.add(cb);
    return () => this.set.delete(cb);
  }
  emit(...args: T): void {
    for (const cb of this.set) cb(...args);
  }
}
