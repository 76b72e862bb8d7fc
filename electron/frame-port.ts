/**
 * Frames and snapshots reach the page over a MessagePort, not IPC events: one
 * `MessageChannelMain` per page load, its second port handed to the page (via the preload), the
 * first kept here. A reload gets a fresh port and a fresh snapshot first (docs/design.md §6), and
 * so does a backend switch.
 */
import { MessageChannelMain, type MessagePortMain, type WebContents } from 'electron';
import { PORT_MESSAGE } from '../shared/transport.ts';
import type { AnyHostSession } from '../engine/host/server/host-session.ts';

export function streamFramesTo(contents: WebContents, session: AnyHostSession): () => void {
  let port: MessagePortMain | null = null;

  const connect = () => {
    port?.close();
    const channel = new MessageChannelMain();
    port = channel.port1;
    port.start();
    contents.postMessage(PORT_MESSAGE, null, [channel.port2]);
    port.postMessage({ type: 'snapshot', snapshot: session.snapshot() });
  };
  contents.on('did-finish-load', connect);

  const unsubscribe = session.onFrame((frame) => port?.postMessage({ type: 'frame', frame }));
  // A backend switch replaces the session behind: the page starts over from its snapshot.
  const unreset =
    session.onReset?.(() =>
      port?.postMessage({ type: 'snapshot', snapshot: session.snapshot() }),
    ) ?? (() => {});
  return () => {
    unsubscribe();
    unreset();
    contents.off('did-finish-load', connect);
    port?.close();
    port = null;
  };
}
