// A worker's queued dispatches as the main thread keeps them: their tickets (control.ts) decide,
// for each, whether the worker runs it or the main thread takes it back. The worker's side is
// played here by `takeTicket` on the same control words, as worker-entry.ts does.
import { describe, expect, it } from 'vitest';
import type { Dispatch } from '../backend.ts';
import { createControl, MAX_QUEUED, takeTicket, TICKET_WORDS } from './control.ts';
import { PoolWorker } from './pool-worker.ts';
import type { WorkerHost } from './worker-host.ts';

function worker(): PoolWorker {
  const { words } = createControl();
  // No thread: queueing and taking back touch only the control words.
  return new PoolWorker(0, words, {} as WorkerHost, Promise.resolve(), () => {});
}

const dispatch = (splitId: number): Dispatch => ({
  splitId,
  workerId: 0,
  quantumNanos: 1e6,
  work: { kernel: 'spin', totalNanos: 1e6 },
  doneNanos: 0,
});

describe('PoolWorker tickets', () => {
  it('a dispatch queued long ago keeps its ticket however many behind it are taken back', () => {
    const w = worker();
    w.run(dispatch(0), 0);
    const first = w.queue(dispatch(1));
    // Cancels take back what was queued behind it, and the queue fills again: more tickets than
    // there are words, while the first is still undecided.
    let id = 2;
    for (let round = 0; round < 3 * TICKET_WORDS; round++) {
      w.queue(dispatch(id));
      expect(w.revoke(id)).toBe(true);
      id++;
    }
    expect(w.queuedCount).toBe(1);
    // Not started: the main thread can still tell, and the worker can still start it. (Words
    // used strictly in turn gave its word to a later ticket: the worker skipped the dispatch as
    // taken back while the main thread took it for started and waited for its end for good.)
    expect(w.queuedStarted()).toBe(false);
    expect(takeTicket(w.control, first.word, first.value)).toBe(true);
    expect(w.queuedStarted()).toBe(true);
  });

  it('never gives one word to two undecided tickets, the queue full and churning', () => {
    const w = worker();
    w.run(dispatch(0), 0);
    const open = new Map<number, { id: number; value: number }>(); // word → its open ticket
    let id = 1;
    for (let round = 0; round < 2000; round++) {
      while (w.queuedCount < MAX_QUEUED) {
        const t = w.queue(dispatch(id));
        expect(open.has(t.word)).toBe(false);
        open.set(t.word, { id: id++, value: t.value });
      }
      // Take back one from the middle…
      const middle = w.queuedAt(1 + (round % (MAX_QUEUED - 1)))!.splitId;
      expect(w.revoke(middle)).toBe(true);
      open.delete([...open].find(([, t]) => t.id === middle)![0]);
      // …and the worker starts the first queued one (the running one ended).
      const next = w.queuedAt(0)!.splitId;
      const [word, t] = [...open].find(([, o]) => o.id === next)!;
      expect(takeTicket(w.control, word, t.value)).toBe(true);
      open.delete(word);
      w.advance(round);
    }
  });
});
