// One client's commands on a link driven by hand: a burst received in one turn (as `ws` delivers
// the messages of one TCP chunk) is answered at most MAX_COMMANDS_IN_FLIGHT at a time.
import { describe, expect, it } from 'vitest';
import {
  ClientLink,
  MAX_COMMANDS_IN_FLIGHT,
  STALLED_AFTER_MS,
  type LinkSocket,
} from './client-link.ts';
import type { AnyHostSession } from './host-session.ts';

/** A session whose every answer takes a few ms, counting how many it builds at once. */
class SlowSession implements AnyHostSession {
  building = 0;
  peak = 0;
  async handleCommand(command: unknown): Promise<unknown> {
    this.building++;
    this.peak = Math.max(this.peak, this.building);
    const snapshot = { history: 'x'.repeat(10_000) }; // built before it is written
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.building--;
    return { ok: true, snapshot, echo: command };
  }
  snapshot(): unknown {
    return {};
  }
  onFrame(): () => void {
    return () => {};
  }
  spanCount(): number {
    return 0;
  }
}

function socket(): LinkSocket & { sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  return {
    sent,
    readyState: 1,
    bufferedAmount: 0,
    send: (data, done) => {
      sent.push(JSON.parse(data) as Record<string, unknown>);
      done();
    },
    close: () => {},
    terminate: () => {},
  };
}

describe('a client link under a burst of commands', () => {
  it('answers at most MAX_COMMANDS_IN_FLIGHT at once and refuses the rest by id, naming why', async () => {
    // Before: every command of the burst was answered at once, each reply built before any was
    // written, and 1,300 snapshot commands took the server past 4 GB.
    const session = new SlowSession();
    const out = socket();
    const link = new ClientLink(out, session, {
      highWaterBytes: 1 << 20,
      maxBufferedBytes: 64 << 20,
    });
    const burst = 100;
    const message = (id: number) => JSON.stringify({ id, command: { type: 'snapshot' } });
    await Promise.all(Array.from({ length: burst }, (_, i) => link.receive(message(i + 1), false)));
    expect(session.peak).toBe(MAX_COMMANDS_IN_FLIGHT);
    const replies = out.sent.filter((m) => m['type'] === 'reply');
    const refused = out.sent.filter((m) => m['type'] === 'error');
    expect(replies).toHaveLength(MAX_COMMANDS_IN_FLIGHT);
    expect(refused).toHaveLength(burst - MAX_COMMANDS_IN_FLIGHT);
    expect(refused[0]).toMatchObject({
      id: MAX_COMMANDS_IN_FLIGHT + 1,
      error: { code: 'TOO_MANY_COMMANDS', field: 'message' },
    });
    // Once they are answered, the client's commands go through again; it was not dropped.
    await link.receive(message(burst + 1), false);
    expect(out.sent.at(-1)).toMatchObject({ type: 'reply', id: burst + 1 });
    expect(link.stats.dropped).toBe(false);
  });
});

describe('a client link across a snapshot', () => {
  it('counts the frames it skipped from the last snapshot, as the app does', () => {
    // Before: after a backend switch (a snapshot to every client on the same connection), frames
    // went on carrying the skips from before it, and the app's "spans dropped" kept them.
    const out = socket();
    const link = new ClientLink(out, new SlowSession(), {
      highWaterBytes: 1000,
      maxBufferedBytes: 1 << 20,
    });
    const frame = (n: number) => ({ json: `{"seq":${n}}`, spans: 10 });
    (out as { bufferedAmount: number }).bufferedAmount = 5000; // a slow reader: frames wait
    for (let n = 1; n <= 4; n++) link.offerFrame(frame(n)); // 3 skipped, one pending
    (out as { bufferedAmount: number }).bufferedAmount = 0;
    link.sendSnapshot();
    link.offerFrame(frame(5));
    const frames = out.sent.filter((m) => m['type'] === 'frame');
    expect(frames).toHaveLength(1);
    expect(frames[0]).toEqual({ type: 'frame', frame: { seq: 5 } }); // no skips since the snapshot
    expect(link.stats.skipped).toEqual({ frames: 3, spans: 30 }); // the host's own count goes on
  });
});

describe('a client that reads nothing', () => {
  it('is dropped once it has had no frame for STALLED_AFTER_MS, so it does not hold its place', () => {
    // Before: frames were coalesced for it for good, and 32 such clients held every place the
    // server has: every other client was refused TOO_MANY_CLIENTS until they went.
    let now = 0;
    const limits = { highWaterBytes: 1000, maxBufferedBytes: 1 << 20, now: () => now };
    const stuck = socket();
    (stuck as { bufferedAmount: number }).bufferedAmount = 5000; // never drains
    const reading = socket();
    const closed: number[] = [];
    stuck.close = (code) => closed.push(code);
    const stalled = new ClientLink(stuck, new SlowSession(), limits);
    const fine = new ClientLink(reading, new SlowSession(), limits);
    const frame = (n: number) => ({ json: `{"seq":${n}}`, spans: 0 });
    for (let n = 1; now <= STALLED_AFTER_MS; n++, now += 100) {
      stalled.offerFrame(frame(n));
      fine.offerFrame(frame(n));
    }
    expect(stalled.stats.dropped).toBe(false); // at 30 s: not yet
    now += 100;
    stalled.offerFrame(frame(0));
    fine.offerFrame(frame(0));
    expect(stalled.stats.dropped).toBe(true);
    expect(closed).toEqual([1008]);
    expect(stuck.sent.at(-1)).toMatchObject({
      type: 'error',
      error: { code: 'CLIENT_TOO_SLOW', field: 'stalledAfterMs' },
    });
    expect(fine.stats.dropped).toBe(false);
    expect(fine.stats.sent).toBe(302);
  });
});
