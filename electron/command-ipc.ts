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

interface Sender {
  readonly senderFrame: { readonly url: string } | null;
}

/**
 * `review` sees each command from our page before the session does (the module-directory
 * question, module-consent.ts) and may answer it instead.
 */
export async function answerCommand(
  session: AnyHostSession,
  event: Sender,
  command: unknown,
  review?: CommandReview,
): Promise<unknown> {
  const url = event.senderFrame?.url;
  if (!isOwnPage(url)) {
    throw new Error(`command refused: sender ${url ?? 'unknown'} is not SchedLab`);
  }
  const refused = review === undefined ? null : await review(command);
  return refused ?? session.handleCommand(command);
}

/** Registers the handler; returns its removal (for a clean quit). */
export function serveCommands(session: AnyHostSession, review?: CommandReview): () => void {
  ipcMain.handle(COMMAND_CHANNEL, (event, command: unknown) =>
    answerCommand(session, event, command, review),
  );
  return () => ipcMain.removeHandler(COMMAND_CHANNEL);
}
