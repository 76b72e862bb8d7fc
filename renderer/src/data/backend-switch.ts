/**
 * Switching the live session's backend from the header (`setBackend`): like a preset switch, the
 * user chooses to let the old backend's live jobs drain first or to cancel them; either way the
 * new backend runs the preset that was running, and the host sends a fresh snapshot. The header
 * says what runs now, and while a drain is under way, how many jobs it waits for.
 */
import type { BackendName, CommandResult } from '../../../shared/protocol.ts';
import type { Transport } from '../transport/transport.ts';
import type { SwitchChoice } from './preset-switch.ts';
import { errorText } from './commands.ts';

/** Sends the switch; the answer carries `cancelled` or `draining`. */
export function switchBackend(
  transport: Pick<Transport, 'send'>,
  backend: BackendName,
  mode: SwitchChoice,
): Promise<CommandResult> {
  return transport.send({ type: 'setBackend', backend, mode });
}

/** The notice after a switch was accepted. */
export function switchNotice(backend: BackendName, result: CommandResult): string {
  if (!result.ok) return `backend switch failed: ${errorText(result.error)}`;
  const draining = typeof result['draining'] === 'number' ? result['draining'] : 0;
  if (draining > 0) return `switching to ${backend} once ${draining} live jobs finish`;
  const cancelled = typeof result['cancelled'] === 'number' ? result['cancelled'] : 0;
  return cancelled > 0
    ? `cancelled ${cancelled} jobs · running on ${backend}`
    : `running on ${backend}`;
}

/** What the header says about the backend running now. */
export function backendText(
  name: BackendName | null,
  speed: number | 'max' | null,
  pending: { to: BackendName; live: number } | null,
): string {
  const pace =
    name === 'sim' && speed !== null
      ? speed === 'max'
        ? ' · as fast as it goes'
        : ` · ${speed}× real time`
      : '';
  const wait =
    pending === null
      ? ''
      : ` · → ${pending.to} after ${pending.live} ${pending.live === 1 ? 'job' : 'jobs'}`;
  return `${name ?? ''}${pace}${wait}`;
}
