/**
 * The one IPC channel of the app: `window.schedlab.command(cmd)` in the page arrives here. Only
 * our own page may drive the engine — a frame that navigated elsewhere (or any other sender) is
 * refused before the command is even parsed (docs/design.md §7, electron/fiddle's sender check).
 */
import { ipcMain } from 'electron';
import { COMMAND_CHANNEL } from '../shared/transport.ts';
import type { AnyHostSession } from '../engine/host/server/host-session.ts';
import { isOwnPage } from './app-origin.ts';
import type { CommandReview } from './module-consent.ts';
import { MAX_COMMANDS_IN_FLIGHT } from '../engine/host/server/client-link.ts';
import { MAX_MESSAGE_BYTES } from '../engine/host/server/server.ts';
import type { ErrorInfo } from '../shared/errors.ts';

interface Sender {
  readonly senderFrame: { readonly url: string } | null;
}

/**
 * The page's commands answered at once, bounded as a browser-mode client's are
 * (`MAX_COMMANDS_IN_FLIGHT`, client-link.ts): without it a page that sent a thousand commands had
 * a thousand at work in the session at once (each `compare` a whole simulator).
 */
export class CommandGate {
  inFlight = 0;
}

/**
 * `review` sees each command from our page before the session does (the module-directory
 * question, module-consent.ts) and may answer it instead. A command past the gate, larger than
 * a browser-mode message may be (`MAX_MESSAGE_BYTES`) or not made of JSON values is refused, as
 * browser mode refuses it, before anything reads it.
 */
export async function answerCommand(
  session: AnyHostSession,
  event: Sender,
  command: unknown,
  review?: CommandReview,
  gate: CommandGate = new CommandGate(),
): Promise<unknown> {
  const url = event.senderFrame?.url;
  if (!isOwnPage(url)) {
    throw new Error(`command refused: sender ${url ?? 'unknown'} is not SchedLab`);
  }
  const refusal = refuse(command, gate);
  if (refusal !== null) return { ok: false, error: refusal };
  gate.inFlight++;
  try {
    const refused = review === undefined ? null : await review(command);
    return await (refused ?? session.handleCommand(command));
  } finally {
    gate.inFlight--;
  }
}

function refuse(command: unknown, gate: CommandGate): ErrorInfo | null {
  if (gate.inFlight >= MAX_COMMANDS_IN_FLIGHT) {
    const message = `more than ${MAX_COMMANDS_IN_FLIGHT} commands of this page are unanswered; this one is refused`;
    return { code: 'TOO_MANY_COMMANDS', message, field: 'message' };
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(command);
  } catch (e) {
    // A BigInt, a cycle: IPC carries them, the protocol (JSON, as browser mode's) does not.
    const message = `a command is made of JSON values: ${e instanceof Error ? e.message : String(e)}`;
    return { code: 'BAD_MESSAGE', message, field: 'message' };
  }
  if (json !== undefined && Buffer.byteLength(json) > MAX_MESSAGE_BYTES) {
    const message = `message is over the limit of ${MAX_MESSAGE_BYTES} bytes`;
    return { code: 'MESSAGE_TOO_LARGE', message, field: 'message' };
  }
  return null;
}

/** Registers the handler; returns its removal (for a clean quit). */
export function serveCommands(session: AnyHostSession, review?: CommandReview): () => void {
  const gate = new CommandGate();
  ipcMain.handle(COMMAND_CHANNEL, (event, command: unknown) =>
    answerCommand(session, event, command, review, gate),
  );
  return () => ipcMain.removeHandler(COMMAND_CHANNEL);
}
