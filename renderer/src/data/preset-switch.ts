/**
 * Switching preset while the old workload still has live jobs: the user chooses to let them
 * drain (they finish alongside the new preset) or to cancel everything queued first (one
 * `cancelAll`), so the new preset's figures are not the old one's leftovers. Either way the
 * latency and wait windows start again (`resetStats`).
 */
import type { CommandError, CommandResultOf, GraphFrame } from '../../../shared/protocol.ts';
import type { ClientCommand, Transport } from '../transport/transport.ts';

export type SwitchChoice = 'drain' | 'cancel';

export interface SwitchOutcome {
  /** The first command that failed, with its result; null when the preset started. */
  failed: { command: ClientCommand; result: CommandError } | null;
  /** Jobs `cancelAll` cancelled (0 when draining). */
  cancelled: number;
  /** The `runPreset` answer. */
  started: CommandResultOf<'runPreset'> | null;
}

/**
 * Runs the switch in order: `cancelAll` (when cancelling), `runPreset`, `resetStats`. A failed
 * `cancelAll` stops it there — starting the new preset on top of the old work is what the user
 * said no to. A host that does not know `resetStats` resets nothing; the switch still stands.
 */
export async function switchPreset(
  transport: Pick<Transport, 'send'>,
  preset: string,
  choice: SwitchChoice,
): Promise<SwitchOutcome> {
  let cancelled = 0;
  if (choice === 'cancel') {
    const command: ClientCommand = { type: 'cancelAll' };
    const r = await transport.send(command);
    if (!r.ok) return { failed: { command, result: r }, cancelled, started: null };
    cancelled = r.cancelled;
  }
  const command: ClientCommand = { type: 'runPreset', preset };
  const started = await transport.send(command);
  if (!started.ok) return { failed: { command, result: started }, cancelled, started };
  await transport.send({ type: 'resetStats' });
  return { failed: null, cancelled, started };
}

/**
 * The graph-run panel shows the session's latest graph run; once the user has switched preset,
 * an ended run of the old workload is no longer what they are looking at, so it goes.
 */
export function showGraphPanel(
  graph: GraphFrame | null | undefined,
  dismissedJobId: number | null,
): boolean {
  if (graph === null || graph === undefined) return false;
  const ended = graph.state !== 'running' && graph.state !== 'starting';
  return !(ended && graph.jobId === dismissedJobId);
}
