/**
 * Sends a command and turns a failure into something the UI shows: the field's error for config
 * changes, the notice line otherwise. Returns the result so callers can react.
 */
import type { ErrorInfo } from '../../../shared/errors.ts';
import type { CommandResultOf } from '../../../shared/protocol.ts';
import type { AppStore } from '../store/app-store.ts';
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
  } else if (field !== undefined) {
    s.setFieldError(field, result.error.message);
  } else {
    s.setNotice({ kind: 'error', text: `${command.type}: ${errorText(result.error)}` });
  }
  return result;
}

/**
 * An engine error as a line on its own (a notice, a status line): its message and its code, as
 * the CLI prints them. Beside its field (`setFieldError`) the message alone says enough.
 */
export function errorText(error: ErrorInfo): string {
  return `${error.message} (${error.code})`;
}
