// The Trino executor panel's runaway splits: each row says how far past its quantum the split has
// run, and its button sends `interruptSplit` for that split.
import { isValidElement, type ReactElement, type ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import type { ExecutorStatsRow, RunawaySplit } from '../../../shared/protocol.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { createAppStore } from '../store/app-store.ts';
import type { ClientCommand, Transport } from '../transport/transport.ts';
import { ExecutorPanel, RunawaySplitRow } from './executor-panel.tsx';

const p = (count: number, ms: number) => ({ count, p50: ms, p95: ms, p99: ms, max: ms, mean: ms });
const stats: ExecutorStatsRow = {
  leafSplits: { now: 1, max: 2, mean: 1 },
  blockedQuantumWallMs: p(0, 0),
  unblockedQuantumWallMs: p(3, 20),
  tasksPerLevel: { running: [1, 0, 0, 0, 0], completed: [0, 0, 0, 0, 0] },
};
const stuck: RunawaySplit = { workerId: 1, splitId: 7, taskId: 3, jobId: 2, overrunMs: 1520 };

/** A transport that records what it is sent and answers ok. */
function recordingTransport(): { transport: Transport; sent: ClientCommand[] } {
  const sent: ClientCommand[] = [];
  const transport = {
    host: 'bench',
    send: (command: ClientCommand) => {
      sent.push(command);
      return Promise.resolve({ ok: true, result: {} });
    },
  } as unknown as Transport;
  return { transport, sent };
}

/** The element in a rendered tree whose `data-testid` is `id`. */
function byTestId(node: ReactNode, id: string): ReactElement<Record<string, unknown>> | null {
  if (Array.isArray(node)) {
    for (const child of node as ReactNode[]) {
      const hit = byTestId(child, id);
      if (hit !== null) return hit;
    }
    return null;
  }
  if (!isValidElement<Record<string, unknown>>(node)) return null;
  if (node.props['data-testid'] === id) return node;
  return byTestId(node.props['children'] as ReactNode, id);
}

describe('the executor panel’s runaway splits', () => {
  it('shows each runaway split with its overrun and an interrupt button', () => {
    const telemetry = new Telemetry();
    telemetry.ingestFrame({
      ...syntheticFrame({ seq: 1, timeMs: 2000 }),
      executorStats: stats,
      runawaySplits: [stuck],
    });
    const { transport } = recordingTransport();
    const html = renderStatic(<ExecutorPanel />, {
      state: { policy: 'mlfq', status: 'open' },
      telemetry,
      transport,
    });
    expect(html).toContain('data-testid="runaway-split"');
    expect(html).toContain('split 7 (job 2) on worker 1, 1.5 s over');
    expect(html).toMatch(/data-testid="interrupt-7"[^>]*>interrupt<\/button>/);
  });

  it('interrupt sends interruptSplit for that split', async () => {
    const { transport, sent } = recordingTransport();
    const store = createAppStore({ policy: 'mlfq' });
    const row = RunawaySplitRow({ split: stuck, transport, store });
    const button = byTestId(row, 'interrupt-7');
    expect(button?.type).toBe('button');
    (button!.props['onClick'] as () => void)();
    await Promise.resolve();
    expect(sent).toEqual([{ type: 'interruptSplit', splitId: 7 }]);
    expect(store.getState().notice).toBeNull();
  });
});
