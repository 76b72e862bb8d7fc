import { describe, expect, it } from 'vitest';
import type { CommandResult, GraphFrame } from '../../../shared/protocol.ts';
import type { ClientCommand } from '../transport/transport.ts';
import { showGraphPanel, switchPreset } from './preset-switch.ts';

function host(answers: Partial<Record<ClientCommand['type'], CommandResult>> = {}) {
  const sent: string[] = [];
  return {
    sent,
    send: (c: ClientCommand): Promise<CommandResult> => {
      sent.push(c.type === 'runPreset' ? `runPreset ${c.preset}` : c.type);
      return Promise.resolve(answers[c.type] ?? { ok: true });
    },
  };
}

describe('switching preset', () => {
  it('cancel: cancels what is queued first, then starts the preset and resets the stats windows', async () => {
    const h = host({ cancelAll: { ok: true, cancelled: 517 } });
    const out = await switchPreset(h, 'batch-service', 'cancel');
    expect(h.sent).toEqual(['cancelAll', 'runPreset batch-service', 'resetStats']);
    expect(out).toMatchObject({ failed: null, cancelled: 517 });
  });

  it('drain: leaves the old jobs running', async () => {
    const h = host();
    await switchPreset(h, 'diamond', 'drain');
    expect(h.sent).toEqual(['runPreset diamond', 'resetStats']);
  });

  it('does not start the new preset over the old work when cancelAll fails', async () => {
    const refused: CommandResult = {
      ok: false,
      error: { code: 'BAD_MESSAGE', message: 'type: unknown command' },
    };
    const h = host({ cancelAll: refused });
    const out = await switchPreset(h, 'diamond', 'cancel');
    expect(h.sent).toEqual(['cancelAll']);
    expect(out.failed?.command).toEqual({ type: 'cancelAll' });
  });

  it('the old workload’s ended graph run leaves the screen; a running one stays', () => {
    const g = { jobId: 4, state: 'succeeded' } as GraphFrame;
    expect(showGraphPanel(g, null)).toBe(true);
    expect(showGraphPanel(g, 4)).toBe(false);
    expect(showGraphPanel({ ...g, state: 'running' }, 4)).toBe(true);
    expect(showGraphPanel({ ...g, jobId: 5 }, 4)).toBe(true);
  });
});
