/**
 * The one interface the renderer talks to. It never knows which host it is in: browser mode
 * (WebSocket) and Electron (preload bridge + MessagePort) both implement it, and so does the
 * bench's injection transport.
 */
import type {
  Command,
  CommandError,
  CommandResult,
  CommandResultOf,
  Frame,
  Snapshot,
} from '../../../shared/protocol.ts';
import type { Skipped } from '../../../shared/transport.ts';

/**
 * `ended`: the host refused this page's token (a restarted server has a new one); reconnecting
 * cannot help, so the transport stops trying and the UI says how to open the new session.
 * `stopped`: the host closed the connection saying it stops (browser mode's server shutting
 * down); the transport looks for it on the same port a few times only, since a restarted one
 * usually listens on another, and the UI says to open the URL it prints when it starts again.
 */
export type ConnectionStatus = 'connecting' | 'open' | 'closed' | 'ended' | 'stopped';

/** What the renderer sends: the protocol's commands. */
export type ClientCommand = Command;

export interface Transport {
  readonly host: 'electron' | 'browser' | 'bench';
  /** Answers with the command's own result shape (`CommandResults` of shared/protocol.ts). */
  send<C extends ClientCommand>(command: C): Promise<CommandResultOf<C['type']>>;
  onFrame(cb: (frame: Frame, skipped?: Skipped) => void): () => void;
  onSnapshot(cb: (snapshot: Snapshot) => void): () => void;
  onStatus(cb: (status: ConnectionStatus) => void): () => void;
  close(): void;
}

/** What a command resolves to when it cannot reach the host at all. */
export function disconnected(message = 'not connected to the engine'): CommandError {
  return { ok: false, error: { code: 'ENGINE_CLOSED', message } };
}

/**
 * A host's answer to `command` as the protocol types it: the one place a reply that came over a
 * wire is taken to be of its command's shape (the host answers by the same `CommandResults`).
 */
export function answerOf<C extends ClientCommand>(
  _command: C,
  result: CommandResult,
): CommandResultOf<C['type']> {
  return result as CommandResultOf<C['type']>;
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
