/**
 * `?bench=1`: no host at all. The bench drives the renderer by calling
 * `window.__schedlabInject(frame)` / `window.__schedlabInjectSnapshot(snapshot)` from the page,
 * so it measures drawing, not a network. Commands answer with a clear error.
 */
import type { Frame, Snapshot } from '../../../shared/protocol.ts';
import { disconnected, Listeners, type ConnectionStatus, type Transport } from './transport.ts';

export interface BenchHooks {
  __schedlabInject?: (frame: Frame) => void;
  __schedlabInjectSnapshot?: (snapshot: Snapshot) => void;
}

export function createBenchTransport(target: BenchHooks): Transport {
  const frames = new Listeners<[Frame, undefined]>();
  const snapshots = new Listeners<[Snapshot]>();
  target.__schedlabInject = (frame) => frames.emit(frame, undefined);
  target.__schedlabInjectSnapshot = (snapshot) => snapshots.emit(snapshot);
  return {
    host: 'bench',
    send: (command) => Promise.resolve(disconnected(`bench mode has no engine (${command.type})`)),
    onFrame: (cb) => frames.add(cb),
    onSnapshot: (cb) => snapshots.add(cb),
    onStatus: (cb: (s: ConnectionStatus) => void) => {
      cb('open');
      return () => {};
    },
    close() {
      delete target.__schedlabInject;
      delete target.__schedlabInjectSnapshot;
    },
  };
}
