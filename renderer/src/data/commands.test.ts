import { describe, expect, it } from 'vitest';
import type { CommandResult } from '../../../shared/protocol.ts';
import { createAppStore, READ_ONLY_REASON } from '../store/app-store.ts';
import type { ClientCommand, Transport } from '../transport/transport.ts';
import { sendCommand, togglePause } from './commands.ts';

const refused: CommandResult = {
  ok: false,
  error: { code: 'INVALID_CONFIG', message: 'workers must be >= 1', field: 'workers' },
};

function refusing(): Transport {
  return {
    host: 'browser',
    send: (_c: ClientCommand) => Promise.resolve(refused),
    onFrame: () => () => {},
    onSnapshot: () => () => {},
    onStatus: () => () => {},
    close: () => {},
  } as unknown as Transport;
}

describe('a refused command in the UI', () => {
  it('a notice gives the engine’s code with its message (the code was shown nowhere)', async () => {
    const store = createAppStore();
    await sendCommand(refusing(), store, { type: 'configure', config: { workers: 0 } });
    expect(store.getState().notice).toEqual({
      kind: 'error',
      text: 'configure: workers must be >= 1 (INVALID_CONFIG)',
      command: 'configure',
    });
  });

  it('beside its field, the message alone', async () => {
    const store = createAppStore();
    await sendCommand(refusing(), store, { type: 'configure', config: { workers: 0 } }, 'workers');
    expect(store.getState().fieldErrors['workers']).toBe('workers must be >= 1');
    expect(store.getState().notice).toBeNull();
  });
});

describe('the pause shortcut (Space)', () => {
  /** A transport that answers every command and records its type. */
  function recording(sent: string[]): Transport {
    return {
      host: 'browser',
      send: (c: ClientCommand) => {
        sent.push(c.type);
        return Promise.resolve({ ok: true, paused: true });
      },
    } as unknown as Transport;
  }

  it('on a read-only host sends nothing and says why in the notice (it did nothing at all)', () => {
    const sent: string[] = [];
    const store = createAppStore({ status: 'open', readOnly: true });
    togglePause(recording(sent), store);
    expect(sent).toEqual([]);
    expect(store.getState().notice).toEqual({ kind: 'info', text: `pause: ${READ_ONLY_REASON}` });
  });

  it('pauses, or resumes, a host that takes commands', () => {
    const sent: string[] = [];
    togglePause(recording(sent), createAppStore({ status: 'open' }));
    togglePause(recording(sent), createAppStore({ status: 'open', paused: true }));
    expect(sent).toEqual(['pause', 'resume']);
  });
});
