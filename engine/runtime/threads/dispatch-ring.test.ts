import { MessageChannel, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import type { Dispatch } from '../backend.ts';
import { createRingBuffer, RingReader, RingWriter, WAKE, type RingItem } from './dispatch-ring.ts';
import { Outbox } from './outbox.ts';
import type { PoolWorker } from './pool-worker.ts';
import type { ModuleCall } from './protocol.ts';

// Both ends of a dispatch ring on one thread: what the writer (the outbox, main thread) puts in
// must come out of the reader (the worker) whole and in order, however it crossed.
const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

function channel(): [MessagePort, MessagePort] {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  return [port1, port2];
}

function ring(slots: number) {
  const buffer = createRingBuffer(slots);
  const [main, side] = channel();
  const writer = new RingWriter(buffer, main);
  const reader = new RingReader(buffer, side, () => {});
  return { writer, reader, buffer };
}

const call = (splitId: number, input: unknown, ticketWord = -1, ticket = 0): ModuleCall => [
  splitId,
  2_000_000,
  3,
  input,
  ticketWord,
  ticket,
];

function readAll(reader: RingReader): RingItem[] {
  const out: RingItem[] = [];
  for (let item = reader.next(); item !== undefined; item = reader.next()) out.push(item);
  return out;
}

describe('dispatch ring', () => {
  it('gives back calls and messages in order, small inputs inline and others through extras', () => {
    const { writer, reader } = ring(16);
    const big = { rows: Array.from({ length: 1000 }, (_, i) => ({ i, text: `row ${i}` })) };
    const items: RingItem[] = [
      { type: 'ref', id: 3, ref: { module: 'file:///m.mjs' } },
      call(1, 41, 5, 77),
      call(2, undefined),
      call(3, 'text'),
      { type: 'drop', splitId: 9 },
      call(4, big, 6, 78),
      call(5, -0.5),
      call(6, 10n ** 40n),
      call(7, null),
    ];
    writer.send(items, writer.extrasOf(items));
    expect(readAll(reader)).toEqual(items);
    expect(reader.next()).toBeUndefined();
  });

  it('wakes a sleeping reader once per send, never one that is awake, and not twice for extras', () => {
    const buffer = createRingBuffer(8);
    const [main, side] = channel();
    const writer = new RingWriter(buffer, main);
    const reader = new RingReader(buffer, channel()[1], () => {}); // its extras are not needed
    const posted = () => {
      const out: unknown[] = [];
      for (let m = receiveMessageOnPort(side); m !== undefined; m = receiveMessageOnPort(side))
        out.push(m.message);
      return out;
    };
    writer.send([call(1, 1)], []); // the worker starts asleep: woken
    expect(posted()).toEqual([WAKE]);
    writer.send([call(2, 2)], []); // woken already, not yet read
    expect(posted()).toEqual([]);
    expect(readAll(reader).map((c) => (c as ModuleCall)[0])).toEqual([1, 2]);
    expect(reader.sleep()).toBe(true);
    writer.send([call(3, 'x')], ['x']); // the extras are the wake-up
    expect(posted()).toEqual([['x']]);
    // A record written as it goes to sleep keeps it awake (it reads on instead of sleeping).
    expect(reader.sleep()).toBe(false);
  });

  it('carries many more records than it has slots, in order, as the reader frees them', () => {
    const { writer, reader } = ring(8);
    const seen: unknown[] = [];
    let next = 0;
    while (next < 5000) {
      const batch: RingItem[] = [];
      for (let n = writer.room(); n > 0 && next < 5000; n--, next++)
        batch.push(call(next, next % 3 === 0 ? `s${next}` : next));
      writer.send(batch, writer.extrasOf(batch));
      expect(writer.room()).toBeLessThanOrEqual(8);
      for (const item of readAll(reader)) seen.push((item as ModuleCall)[3]);
    }
    expect(seen).toEqual(Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `s${i}` : i)));
  });
});

describe('Outbox over a dispatch ring', () => {
  function worker(slots: number) {
    const r = ring(slots);
    const posted: unknown[] = [];
    const fake = { ring: r.writer, host: { post: (m: unknown) => posted.push(m) } };
    return { ...r, worker: fake as unknown as PoolWorker, posted };
  }
  const dispatch = (splitId: number) => ({ splitId, quantumNanos: 2_000_000 }) as Dispatch;

  it('keeps what a full ring cannot take, in order ahead of later messages, and sends it later', async () => {
    const { reader, worker: w, posted } = worker(4);
    const outbox = new Outbox(
      () => true,
      () => {},
    );
    for (let i = 0; i < 10; i++) outbox.send(w, call(i, i % 2 === 0 ? i : { i }), dispatch(i));
    outbox.flush();
    const got = readAll(reader).map((c) => (c as ModuleCall)[3]);
    expect(got).toEqual([0, { i: 1 }, 2, { i: 3 }]);
    outbox.send(w, call(10, 10), dispatch(10));
    for (let round = 0; round < 100 && got.length < 11; round++) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      for (const item of readAll(reader)) got.push((item as ModuleCall)[3]);
    }
    expect(got).toEqual(
      Array.from({ length: 11 }, (_, i) => (i % 2 === 0 || i === 10 ? i : { i })),
    );
    expect(posted).toEqual([]); // a ring worker gets no dispatch by message
  });

  it('writes small calls straight into the ring, published at the end of the turn, in order with the rest', async () => {
    const { reader, worker: w, posted } = worker(16);
    const outbox = new Outbox(
      () => true,
      () => {},
    );
    const ref = { type: 'ref', id: 4, ref: { module: 'file:///n.mjs' } } as const;
    outbox.call(w, dispatch(1), 3, 41, { word: 5, value: 77 });
    outbox.call(w, dispatch(2), 3, undefined, undefined);
    expect(reader.next()).toBeUndefined(); // written, not yet published
    outbox.send(w, ref, null);
    // Something waits in the box now: this call goes behind it, not straight into the ring.
    outbox.call(w, dispatch(3), 4, 43, undefined);
    outbox.call(w, dispatch(4), 4, 'text', undefined);
    await Promise.resolve(); // the end of the turn
    expect(readAll(reader)).toEqual([
      call(1, 41, 5, 77),
      call(2, undefined),
      ref,
      [3, 2_000_000, 4, 43, -1, 0],
      [4, 2_000_000, 4, 'text', -1, 0],
    ]);
    expect(posted).toEqual([]);
  });

  it('fails only the dispatch whose input cannot be cloned; the others arrive aligned', () => {
    const { reader, worker: w } = worker(16);
    const failed: number[] = [];
    const outbox = new Outbox(
      () => true,
      (_worker, d, error) => {
        expect(String(error)).toMatch(/could not be cloned/);
        failed.push(d.splitId);
      },
    );
    outbox.send(w, call(1, 'a'), dispatch(1));
    outbox.send(
      w,
      call(2, () => 'no'),
      dispatch(2),
    );
    outbox.send(w, call(3, 3), dispatch(3));
    outbox.send(w, call(4, { b: 4 }), dispatch(4));
    outbox.flush();
    expect(failed).toEqual([2]);
    const got = readAll(reader).map((c) => [(c as ModuleCall)[0], (c as ModuleCall)[3]]);
    expect(got).toEqual([
      [1, 'a'],
      [3, 3],
      [4, { b: 4 }],
    ]);
  });
});
