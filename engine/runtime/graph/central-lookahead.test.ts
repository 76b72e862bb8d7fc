import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGraphDocument, type GraphPolicy } from '../../../shared/graph.ts';
import { compileDocument, compileGraph } from '../../core/graph/compile.ts';
import { NODE_STATES } from '../../core/graph/node-state.ts';
import { randomDag } from '../../core/graph/random-dag.ts';
import type { Backend, QuantumEnd } from '../backend.ts';
import { ThreadsBackend } from '../threads/index.ts';
import { runGraphCentral, startGraphCentral } from './central-executor.ts';

// The central executor's lookahead on real threads: each busy worker holds the next ready node.
const fixtures = new URL('../threads/fixtures/', import.meta.url);
const module = (file: string, exportName: string) => ({
  module: new URL(file, fixtures).href,
  exportName,
});
const POLICIES: GraphPolicy[] = ['fifo', 'lifo', 'most-successors', 'sjf', 'ljf', 'critical-path'];

let threads: ThreadsBackend;
beforeAll(async () => {
  threads = new ThreadsBackend({ workers: 2 });
  await threads.ready();
});
afterAll(async () => {
  await threads.close();
});

/** The threads backend seen through a counter of queue calls and a hook on every quantum end. */
function watched(onEnd: (end: QuantumEnd) => void = () => {}) {
  const calls = { enqueue: 0, revoke: 0, reclaimed: 0 };
  const backend: Backend = {
    kind: 'threads',
    get workerCount() {
      return threads.workerCount;
    },
    now: () => threads.now(),
    setWorkerCount: (count) => threads.setWorkerCount(count),
    idleWorkers: () => threads.idleWorkers(),
    start: (dispatch) => threads.start(dispatch),
    cancel: (splitId) => threads.cancel(splitId),
    setTimer: (at, fn) => threads.setTimer(at, fn),
    setListener: (events) =>
      threads.setListener({
        quantumEnd: (end) => {
          events.quantumEnd(end);
          onEnd(end);
        },
      }),
    close: () => threads.close(),
    queueableWorkers: () => threads.queueableWorkers(),
    enqueue: (dispatch) => {
      calls.enqueue++;
      threads.enqueue(dispatch);
    },
    revoke: (splitId) => {
      calls.revoke++;
      const taken = threads.revoke(splitId);
      if (taken) calls.reclaimed++;
      return taken;
    },
  };
  return { backend, calls };
}

describe('central executor lookahead on real threads', () => {
  it('queues ahead yet runs every node once, never before its predecessors end', async () => {
    const input = fc.integer({ min: 1, max: 30 }).chain((n) =>
      fc.record({
        order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
        pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 2 * n }),
        costs: fc.array(fc.integer({ min: 0, max: 300_000 }), { minLength: n, maxLength: n }),
      }),
    );
    let queued = 0;
    await fc.assert(
      fc.asyncProperty(input, fc.constantFrom(...POLICIES), async (dag, policy) => {
        const g = compileGraph(randomDag(dag));
        const { backend, calls } = watched();
        const report = await runGraphCentral(backend, g, { policy });
        queued += calls.enqueue;
        expect(report.counts.succeeded).toBe(g.nodeCount);
        expect(report.spans.map((s) => s.nodeIndex).sort((a, b) => a - b)).toEqual([
          ...Array(g.nodeCount).keys(),
        ]);
        const span = new Map(report.spans.map((s) => [s.nodeIndex, s]));
        for (let v = 0; v < g.nodeCount; v++) {
          for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
            expect(span.get(g.successors[k]!)!.startNanos).toBeGreaterThanOrEqual(
              span.get(v)!.endNanos,
            );
          }
        }
      }),
      { numRuns: 25 },
    );
    expect(queued).toBeGreaterThan(0);
  }, 60_000);

  it('an idle worker takes back a node queued behind a worker that stays busy', async () => {
    // `slow` declares 1 µs but takes a second: `next` is queued behind it (its worker looked
    // nearly free), then `quick`'s worker goes idle with nothing ready and takes `next` back.
    const g = compileDocument(
      parseGraphDocument({
        nodes: [
          { id: 'slow', cost: 0.001, kernel: module('graph-nodes.mjs', 'takesOneSecond') },
          { id: 'quick', cost: 1 },
          { id: 'next', cost: 1 },
        ],
      }),
    );
    const { backend, calls } = watched();
    const report = await runGraphCentral(backend, g, { policy: 'fifo' });
    expect(report.counts.succeeded).toBe(3);
    const span = new Map(report.spans.map((s) => [s.node, s]));
    expect(calls.reclaimed).toBe(1);
    expect(span.get('next')!.workerId).toBe(span.get('quick')!.workerId);
    expect(span.get('next')!.endNanos).toBeLessThan(span.get('slow')!.endNanos);
    expect(report.spans).toHaveLength(3); // the taken-back dispatch never ran: no span
  }, 30_000);

  it('fail-fast: queued nodes end cancelled with the running ones; one root cause', async () => {
    const g = compileDocument(
      parseGraphDocument({
        nodes: [
          // Ten seconds: the failure (a cold module import on the other worker) lands long before
          // it could end on any machine; fail-fast cancels it at once.
          { id: 'long', cost: 10_000 },
          { id: 'bad', kernel: module('failing.mjs', 'throws') },
          ...Array.from({ length: 6 }, (_, i) => ({ id: `q${i}`, cost: 5 })),
        ],
      }),
    );
    const { backend, calls } = watched();
    const report = await runGraphCentral(backend, g, { policy: 'fifo' });
    const states = Array.from(report.states, (s) => NODE_STATES[s]);
    expect(calls.enqueue).toBeGreaterThan(0);
    expect(report.rootCause).toMatchObject({ node: 'bad' });
    expect(states.slice(0, 2)).toEqual(['cancelled', 'failed']);
    expect(states.every((s) => s === 'cancelled' || s === 'failed' || s === 'succeeded')).toBe(
      true,
    );
    // Only a node that had already started when the failure landed may have finished.
    expect(report.counts.succeeded).toBeLessThanOrEqual(2);
    // A quantum that finished as the stop landed (its cancel asked while it ran) still ends its
    // node cancelled, not succeeded: a finished span is one or the other, never failed.
    for (const s of report.spans.filter((s) => s.outcome === 'finished'))
      expect(['succeeded', 'cancelled']).toContain(states[s.nodeIndex]);
  }, 30_000);

  it('cancel mid-run: every node ends succeeded or cancelled, queued ones never run', async () => {
    const g = compileDocument(
      parseGraphDocument({ generator: 'independent', count: 20, cost: 2, kernel: 'spin' }),
    );
    let handle: ReturnType<typeof startGraphCentral> | null = null;
    const { backend, calls } = watched((end) => {
      if (end.outcome === 'finished') handle?.cancel();
    });
    handle = startGraphCentral(backend, g, { policy: 'fifo' });
    const report = await handle.done;
    expect(calls.enqueue).toBeGreaterThan(0);
    expect(report.rootCause).toBeNull();
    expect(report.counts.succeeded + report.counts.cancelled).toBe(20);
    expect(report.counts.succeeded).toBeGreaterThanOrEqual(1);
    expect(report.counts.succeeded).toBeLessThanOrEqual(4); // the first, plus what had started
    const ran = new Set(report.spans.map((s) => s.nodeIndex));
    expect(ran.size).toBeLessThanOrEqual(4);
  }, 30_000);

  it('lookahead off: every dispatch waits for an idle worker', async () => {
    const g = compileDocument(
      parseGraphDocument({ generator: 'independent', count: 8, cost: 1, kernel: 'spin' }),
    );
    const { backend, calls } = watched();
    const report = await runGraphCentral(backend, g, { lookahead: false });
    expect(report.counts.succeeded).toBe(8);
    expect(calls.enqueue).toBe(0);
  }, 30_000);
});
