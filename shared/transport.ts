/**
 * The envelopes that carry the protocol (./protocol.ts) between a host and the renderer, the same
 * for both transports (docs/design.md §6):
 * - browser mode: JSON text messages over one WebSocket (`/ws?token=…`);
 * - Electron: commands through the preload's `window.schedlab.command` (one IPC channel), frames
 *   and snapshots over a `MessagePort` carrying the same host-message envelopes.
 *
 * A host answers every well-formed client message with exactly one `reply` (whose `result` is the
 * command's `{ok: true, …}` or `{ok: false, error}`); a message it cannot read at all gets an
 * `error` envelope and the connection stays open. A new client receives a `snapshot` first.
 */
import { z } from 'zod';

/** Electron IPC channel of `window.schedlab.command` (ipcRenderer.invoke ↔ ipcMain.handle). */
export const COMMAND_CHANNEL = 'schedlab:command';
/** Name of the message that hands the renderer its frame port (main → preload → page). */
export const PORT_MESSAGE = 'schedlab:port';
/**
 * What the page posts back on that port for each frame it has taken: the main process sends a
 * page at most `MAX_UNACKED_FRAMES` frames ahead of it and holds the newest one back meanwhile
 * (a page that stops reading costs one frame, and the app says how many it missed).
 */
export const FRAME_ACK = 'schedlab:frame-ack';
export const MAX_UNACKED_FRAMES = 4;
/** WebSocket path of browser mode; the token travels as `?token=`. */
export const WS_PATH = '/ws';
/**
 * The environment variable `schedlab attach` hands the desktop app a console's URL in, token
 * included: not an argument, which any local user can read in the process list (`ps`,
 * /proc/PID/cmdline) for as long as the window is open; a process's environment only its owner
 * can.
 */
export const ATTACH_URL_ENV = 'SCHEDLAB_ATTACH_URL';

// The schemas are built by functions called under a pure annotation, so a bundle that needs only
// the constants above (the Electron preload) leaves zod out.

/** Client → host: one command, correlated by a client-chosen id. */
export const clientMessageSchema = /* @__PURE__ */ clientMessageSchemaOf();
function clientMessageSchemaOf() {
  const idMessage = 'must be a non-negative integer';
  return z.object(
    {
      id: z
        .number({ error: idMessage })
        .int({ error: idMessage })
        .nonnegative({ error: idMessage }),
      command: z.unknown().nonoptional({ error: 'is required' }),
    },
    { error: 'must be an object {id, command}' },
  );
}

/** Frames a host skipped for this client because it was not reading fast enough. */
export interface Skipped {
  /** Frames never sent to this client (cumulative for the connection). */
  frames: number;
  /** Gantt spans those frames carried, lost to this client (cumulative). */
  spans: number;
}

export interface SnapshotMessage<S = unknown> {
  type: 'snapshot';
  snapshot: S;
}
export interface FrameMessage<F = unknown> {
  type: 'frame';
  frame: F;
  /** Present once this client has fallen behind at least once. */
  skipped?: Skipped;
}

/** Shape check of host messages (payloads are the protocol's business). */
export const hostMessageSchema = /* @__PURE__ */ hostMessageSchemaOf();
function hostMessageSchemaOf() {
  const errorInfo = z.object({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
  });
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('reply'), id: z.number().int(), result: z.unknown() }),
    z.object({ type: z.literal('snapshot'), snapshot: z.unknown() }),
    z.object({
      type: z.literal('frame'),
      frame: z.unknown(),
      skipped: z.object({ frames: z.number(), spans: z.number() }).optional(),
    }),
    z.object({ type: z.literal('error'), id: z.number().int().optional(), error: errorInfo }),
  ]);
}

/** What the Electron preload exposes on `window.schedlab` (via contextBridge). */
export interface SchedlabBridge<C = unknown, R = unknown> {
  readonly host: 'electron';
  command(command: C): Promise<R>;
}
