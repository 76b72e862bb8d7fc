/**
 * Frames and snapshots reach the page over a MessagePort, not IPC events: one
 * `MessageChannelMain` per page load, its second port handed to the page (via the preload), the
 * first kept here. A reload gets a fresh port and a fresh snapshot first (docs/design.md §6), and
 * so does a backend switch.
 *
 * A port has no send buffer to watch, so the page acknowledges each frame it has taken
 * (`FRAME_ACK`): at most `MAX_UNACKED_FRAMES` go unacknowledged, and meanwhile the newest frame
 * waits in place of the one before it, which is counted as skipped, as browser mode does for a
 * full socket (frame-coalescer.ts). A page that stops reading (hung, or busy for seconds) costs
 * the main process one frame, not every frame since; the app shows what it missed.
 */
import { MessageChannelMain, type MessagePortMain, type WebContents } from 'electron';
import { FRAME_ACK, MAX_UNACKED_FRAMES, PORT_MESSAGE } from '../shared/transport.ts';
import type { AnyHostSession } from '../engine/host/server/host-session.ts';
import { FrameCoalescer } from '../engine/host/server/frame-coalescer.ts';

export function streamFramesTo(contents: WebContents, session: AnyHostSession): () => void {
  let port: MessagePortMain | null = null;
  let held = new FrameCoalescer<unknown>();
  let unacked = 0;

  const flush = () => {
    if (port === null || unacked >= MAX_UNACKED_FRAMES) return;
    const next = held.take();
    if (next === undefined) return;
    unacked++;
    const { frame, skipped } = next;
    port.postMessage(
      skipped === undefined ? { type: 'frame', frame } : { type: 'frame', skipped, frame },
    );
  };

  const sendSnapshot = () => {
    held.snapshotSent();
    port?.postMessage({ type: 'snapshot', snapshot: session.snapshot() });
  };

  const connect = () => {
    port?.close();
    const channel = new MessageChannelMain();
    const own = channel.port1;
    port = own;
    held = new FrameCoalescer();
    unacked = 0;
    own.on('message', (event: { data: unknown }) => {
      if (event.data !== FRAME_ACK || port !== own) return;
      unacked = Math.max(0, unacked - 1);
      flush();
    });
    own.start();
    contents.postMessage(PORT_MESSAGE, null, [channel.port2]);
    sendSnapshot();
  };
  contents.on('did-finish-load', connect);

  const unsubscribe = session.onFrame((frame) => {
    if (port === null) return;
    held.offer(frame, session.spanCount(frame));
    flush();
  });
  // A backend switch replaces the session behind: the page starts over from its snapshot.
  const unreset = session.onReset?.(sendSnapshot) ?? (() => {});
  return () => {
    unsubscribe();
    unreset();
    contents.off('did-finish-load', connect);
    port?.close();
    port = null;
  };
}
