/**
 * Electron: commands go through the preload's narrow bridge (`window.schedlab.command`), frames
 * and snapshots arrive over a MessagePort the preload hands over with
 * `window.postMessage('schedlab:port', '*', [port])`. Each frame taken is acknowledged on that
 * port (`FRAME_ACK`), which is how the main process paces a page that falls behind.
 */
import type { CommandResult, Frame, Snapshot } from '../../../shared/protocol.ts';
import {
  FRAME_ACK,
  PORT_MESSAGE,
  type SchedlabBridge,
  type Skipped,
  type SnapshotMessage,
  type FrameMessage,
} from '../../../shared/transport.ts';
import {
  answerOf,
  disconnected,
  Listeners,
  type ClientCommand,
  type ConnectionStatus,
  type Transport,
} from './transport.ts';

export type Bridge = SchedlabBridge<ClientCommand, CommandResult>;

export function electronBridge(): Bridge | null {
  const w = window as unknown as { schedlab?: Bridge };
  return w.schedlab?.host === 'electron' ? w.schedlab : null;
}

export function createElectronTransport(bridge: Bridge, target: Window = window): Transport {
  const frames = new Listeners<[Frame, Skipped | undefined]>();
  const snapshots = new Listeners<[Snapshot]>();
  const statuses = new Listeners<[ConnectionStatus]>();
  let status: ConnectionStatus = 'connecting';
  let port: MessagePort | null = null;

  const setStatus = (s: ConnectionStatus) => {
    status = s;
    statuses.emit(s);
  };

  const onWindowMessage = (ev: MessageEvent) => {
    if (ev.data !== PORT_MESSAGE || ev.ports[0] === undefined) return;
    port?.close();
    const own = ev.ports[0];
    port = own;
    own.onmessage = (m: MessageEvent) => {
      const msg = m.data as SnapshotMessage<Snapshot> | FrameMessage<Frame> | null;
      if (msg?.type === 'frame') {
        try {
          frames.emit(msg.frame, msg.skipped);
        } finally {
          // Taken: the main process sends the next one (it holds back what this page cannot take).
          own.postMessage(FRAME_ACK);
        }
      } else if (msg?.type === 'snapshot') snapshots.emit(msg.snapshot);
    };
    own.start();
    setStatus('open');
  };
  target.addEventListener('message', onWindowMessage);

  return {
    host: 'electron',
    async send(command) {
      try {
        return answerOf(command, await bridge.command(command));
      } catch (e) {
        return disconnected(e instanceof Error ? e.message : String(e));
      }
    },
    onFrame: (cb) => frames.add(cb),
    onSnapshot: (cb) => snapshots.add(cb),
    onStatus: (cb) => {
      cb(status);
      return statuses.add(cb);
    },
    close() {
      target.removeEventListener('message', onWindowMessage);
      port?.close();
      setStatus('closed');
    },
  };
}
