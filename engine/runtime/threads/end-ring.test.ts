import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createEndRingBuffer, EndRingReader, EndRingWriter, type EndItem } from './end-ring.ts';
import { flattenReport } from './flat-messages.ts';
import type { FlatEnd, QuantumReport } from './protocol.ts';

// Both ends of an end ring on one thread: what a worker publishes must come out on the main
// thread whole and in order, however it crossed, and the main thread is told only when it must be.
const ports: MessagePort[] = [];
afterEach(() => {
  for (const port of ports.splice(0)) port.close();
});

function ring(slots: number) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const buffer = createEndRingBuffer(slots);
  let told = 0;
  const writer = new EndRingWriter(buffer, port2, () => told++);
  const reader = new EndRingReader(buffer, port1);
  return { writer, reader, told: () => told };
}

const report = (splitId: number, extra: Partial<QuantumReport> = {}): QuantumReport => ({
  splitId,
  startNanos: 1_000 * splitId,
  endNanos: 1_000 * splitId + 250,
  workNanos: 200,
  outcome: 'finished',
  ...extra,
});

/** A report as the worker gathers it: flat when it can be, else the object itself. */
const item = (r: QuantumReport): EndItem => flattenReport(r) ?? r;

function readAll(reader: EndRingReader): QuantumReport[] {
  const out: QuantumReport[] = [];
  reader.drain((r) => out.push(r));
  return out;
}

describe('end ring', () => {
  it('gives back every kind of end in order, numbers inline and other values through extras', () => {
    const { writer, reader } = ring(16);
    const reports = [
      report(1, { result: 42, cpuNanos: 180 }),
      report(2, { result: undefined }),
      report(3, { result: 'text' }),
      report(4, { outcome: 'yielded', state: { rows: [1, 2, 3] } }),
      report(5, { outcome: 'yielded', suspended: true }),
      report(6, { outcome: 'failed', error: 'TypeError: no' }),
      report(7, { outcome: 'blocked', blockedNanos: 5_000 }),
      report(8, { result: 10n ** 40n }),
      report(9, { outcome: 'cancelled' }),
      report(10, { outcome: 'yielded', state: -0.5 }),
      report(11, { result: null }),
      report(12, { result: -0 }),
      report(13, { result: 2 ** 40 + 0.5, workNanos: 2 ** 33 }),
    ];
    const items = reports.map(item);
    writer.send(items, writer.extrasOf(items));
    const got = readAll(reader);
    expect(got).toEqual(reports);
    expect(Object.is(got[11]!.result, -0)).toBe(true);
    expect(readAll(reader)).toEqual([]);
  });

  it('keeps a result that is absent apart from one that is undefined', () => {
    const { writer, reader } = ring(4);
    const none = report(1);
    const undef = report(2, { result: undefined });
    writer.send([item(none), item(undef)], []);
    const [a, b] = readAll(reader);
    expect('result' in a!).toBe(false);
    expect('result' in b!).toBe(true);
  });

  it('tells the main thread once until it starts reading, then again for later ends', () => {
    const { writer, reader, told } = ring(8);
    writer.send([item(report(1, { result: 1 }))], []);
    writer.send([item(report(2, { result: 2 }))], []); // told already, not read yet
    expect(told()).toBe(1);
    expect(readAll(reader).map((r) => r.splitId)).toEqual([1, 2]);
    writer.send([item(report(3, { result: 3 }))], []);
    expect(told()).toBe(2);
  });

  it('reads ends published while it reads, and a read from inside a read returns at once', () => {
    const { writer, reader, told } = ring(8);
    writer.send([item(report(1, { result: 1 }))], []);
    const seen: number[] = [];
    reader.drain((r) => {
      seen.push(r.splitId);
      if (r.splitId === 1) writer.send([item(report(2, { result: 2 }))], []);
      reader.drain(() => seen.push(-1));
    });
    expect(seen).toEqual([1, 2]);
    // The second end came while the main thread read: it was told again (and finds nothing).
    expect(told()).toBe(2);
    expect(readAll(reader)).toEqual([]);
  });

  it('stops while the backend holds the ends, and reads on after the microtasks before it', async () => {
    const { writer, reader } = ring(8);
    writer.send(
      [1, 2, 3].map((id) => item(report(id, { result: id }))),
      [],
    );
    const seen: number[] = [];
    let held = false;
    reader.drain(
      (r) => {
        seen.push(r.splitId);
        if (r.splitId !== 1) return;
        // Reading end 1 makes the backend owe an end of its own, told in a microtask.
        held = true;
        queueMicrotask(() => {
          held = false;
          seen.push(-1);
        });
      },
      () => held,
    );
    expect(seen).toEqual([1]);
    await Promise.resolve();
    await Promise.resolve();
    expect(seen).toEqual([1, -1, 2, 3]);
  });

  it('carries many more ends than it has slots, in order, as the reader frees them', () => {
    const { writer, reader } = ring(8);
    const seen: unknown[] = [];
    let next = 0;
    while (next < 3000) {
      const batch: EndItem[] = [];
      for (let n = writer.room(); n > 0 && next < 3000; n--, next++)
        batch.push(item(report(next, { result: next % 3 === 0 ? `s${next}` : next })));
      writer.send(batch, writer.extrasOf(batch));
      expect(writer.room()).toBe(0);
      for (const r of readAll(reader)) seen.push(r.result);
    }
    expect(seen).toEqual(Array.from({ length: 3000 }, (_, i) => (i % 3 === 0 ? `s${i}` : i)));
  });

  it('publishes nothing when an extra cannot be cloned', () => {
    const { writer, reader, told } = ring(8);
    const items: EndItem[] = [item(report(1, { result: 1 })), item(report(2, { result: () => 0 }))];
    expect(() => writer.send(items, writer.extrasOf(items))).toThrow(/could not be cloned/);
    expect(writer.room()).toBe(8);
    expect(told()).toBe(0);
    expect(readAll(reader)).toEqual([]);
    expect((items[1] as FlatEnd)[7]).toBeTypeOf('function');
  });
});
