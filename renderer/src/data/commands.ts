/**
 * Sends a command and turns a failure into something the UI shows: the field's error for config
 * changes, the notice line otherwise. Returns the result so callers can react.
 */
import type { ErrorInfo } from '../../../shared/errors.ts';
import type { CommandResultOf } from '../../../shared/protocol.ts';
import { canControl, READ_ONLY_REASON, type AppStore } from '../store/app-store.ts';
import type { ClientCommand, Transport } from '../transport/transport.ts';

export async function sendCommand<C extends ClientCommand>(
  transport: Transport,
  store: AppStore,
  command: C,
  field?: string,
): Promise<CommandResultOf<C['type']>> {
  const result = await transport.send(command);
  const s = store.getState();
  if (result.ok) {
    if (field !== undefined) s.setFieldError(field, null);
    // The command now works: its earlier error no longer holds.
    else if (s.notice?.kind === 'error' && s.notice.command === command.type) s.setNotice(null);
  } else if (field !== undefined) {
    s.setFieldError(field, result.error.message);
  } else {
    refuse(store, command.type, errorText(result.error));
  }
  return result;
}

/**
 * The pause shortcut (Space): pauses or resumes the engine. On a read-only host, where the
 * button is off, it says why in the notice line instead of doing nothing; disconnected, the
 * banner already says why.
 */
export function togglePause(transport: Transport, store: AppStore): void {
  const s = store.getState();
  const type = s.paused ? 'resume' : 'pause';
  if (canControl(s)) void sendCommand(transport, store, { type });
  else if (s.status === 'open' && s.readOnly)
    s.setNotice({ kind: 'info', text: `${type}: ${READ_ONLY_REASON}` });
}

/** A command's failure (the engine's, or the app's own check) as the notice line. */
export function refuse(store: AppStore, command: ClientCommand['type'], text: string): void {
  store.getState().setNotice({ kind: 'error', text: `${command}: ${text}`, command });
}

/**
 * An engine error as a line on its own (a notice, a status line): its message and its code, as
 * the CLI prints them. Beside its field (`setFieldError`) the message alone says enough.
 */
export function errorText(error: ErrorInfo): string {
  return `${error.message} (${error.code})`;
}
