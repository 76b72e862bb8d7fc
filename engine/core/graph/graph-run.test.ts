import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphErrorMode, GraphPolicy } from '../../../shared/graph.ts';
import { compileGraph, type CompiledGraph } from './compile.ts';
import { GraphRun } from './graph-run.ts';
import { NODE_STATES, READY, RUNNING, SUCCEEDED, transition } from './node-state.ts';
import { descendants, randomDag } from './random-dag.ts';

/**
 * A greedy list schedule with p workers and zero overhead; `fails(v, attempt)` decides an attempt's
 * outcome. Returns the run and each node's [start, end] of its last attempt.
 */
function schedule(
  g: CompiledGraph,
  p: number,
  policy: GraphPolicy,
  errorMode: GraphErrorMode,
  fails = (_v: number, _a: number) => false,
) {
  const run = new GraphRun(g, { policy, errorMode }, 0);
  const start = new Float64Array(g.nodeCount).fill(-1);
  const end = new Float64Array(g.nodeCount).fill(-1);
  let running: { v: number; end: number }[] = [];
  let now = 0;
  while (!run.finished) {
    while (running.length < p) {
      const v = run.next();
      if (v < 0) break;
      start[v] = now;
      running.push({ v, end: now + g.costNanos[v]! });
    }
    if (running.length === 0) throw new Error('stuck: nothing running, run not finished');
    now = Math.min(...running.map((r) => r.end));
    const done = running.filter((r) => r.end === now);
    running = running.filter((r) => r.end !== now);
    for (const [i, { v }] of done.entries()) {
      end[v] = now;
      if (fails(v, run.attempts[v]!)) {
        run.failed(v, now, g.costNanos[v]!, `node ${v} failed`);
        // fail-fast: the running nodes — including those ending at this same instant — are
        // cancelled cooperatively, at once here (as the simulator does).
        if (run.rootCause !== null && errorMode === 'fail-fast') {
          for (const r of [...running, ...done.slice(i + 1)]) run.cancelled(r.v, now, 0);
          running = [];
          break;
        }
      } else run.succeeded(v, now, g.costNanos[v]!);
    }
  }
  return { run, start, end };
}

const dagInput = fc.integer({ min: 1, max: 30 }).chain((n) =>
  fc.record({
    order: fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }),
    pairs: fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: 3 * n }),
    costs: fc.array(fc.integer({ min: 1, max: 50 }), { minLength: n, maxLength: n }),
    retries: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: n, maxLength: n }),
    failing: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: n, maxLength: n }),
  }),
);
const policies: GraphPolicy[] = ['fifo', 'lifo', 'most-successors', 'sjf', 'ljf', 'critical-path'];

describe('GraphRun', () => {
  it('runs every node exactly once, after all its predecessors, under every policy', () => {
    fc.assert(
      fc.property(
        dagInput,
        fc.constantFrom(...policies),
        fc.integer({ min: 1, max: 4 }),
        (input, policy, p) => {
          const g = compileGraph(randomDag(input));
          const { run, start, end } = schedule(g, p, policy, 'continue');
          expect(run.report(p).counts.succeeded).toBe(g.nodeCount);
          expect(run.report(p).attempts).toBe(g.nodeCount);
          for (let v = 0; v < g.nodeCount; v++) {
            for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
              expect(start[g.successors[k]!]).toBeGreaterThanOrEqual(end[v]!);
            }
          }
          expect(run.report(p).grahamRatio).toBeLessThanOrEqual(1 + 1e-9);
        },
      ),
    );
  });

  it('continue mode: nodes that exhaust their retries fail, their descendants are skipped, the rest succeed', () => {
    fc.assert(
      fc.property(dagInput, (input) => {
        const g = compileGraph(randomDag(input));
        // Node v fails its first `failing[v]` attempts; it fails for good when that exceeds retries.
        const { run } = schedule(
          g,
          2,
          'fifo',
          'continue',
          (v, attempt) => attempt <= input.failing[v]!,
        );
        const failed = [...Array(g.nodeCount).keys()].filter(
          (v) => input.failing[v]! > input.retries[v]!,
        );
        const skipped = descendants(g, failed);
        for (let v = 0; v < g.nodeCount; v++) {
          const expected = skipped.has(v) ? 'skipped' : failed.includes(v) ? 'failed' : 'succeeded';
          expect(NODE_STATES[run.states[v]!]).toBe(expected);
          if (expected === 'succeeded') expect(run.attempts[v]).toBe(input.failing[v]! + 1);
        }
        expect(run.rootCause === null).toBe(failed.length === 0);
      }),
    );
  });

  it('fail-fast: one root cause, nothing downstream of it ran, every node ends terminal', () => {
    fc.assert(
      fc.property(dagInput, fc.integer({ min: 1, max: 3 }), (input, p) => {
        const g = compileGraph(randomDag(input));
        const { run } = schedule(
          g,
          p,
          'fifo',
          'fail-fast',
          (v) => input.failing[v]! > input.retries[v]!,
        );
        const counts = run.report(p).counts;
        const anyFails = input.failing.some((f, v) => f > input.retries[v]!);
        expect(counts.failed).toBe(anyFails ? 1 : 0);
        expect(counts.pending + counts.ready + counts.running + counts.skipped).toBe(0);
        if (!anyFails) return;
        const cause = run.rootCause!;
        expect(cause.node).toBe(`n${cause.index}`);
        expect(NODE_STATES[run.states[cause.index]!]).toBe('failed');
        for (const d of descendants(g, [cause.index]))
          expect(NODE_STATES[run.states[d]!]).toBe('cancelled');
        // Whatever succeeded had all its predecessors succeed.
        for (let v = 0; v < g.nodeCount; v++) {
          for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
            if (run.states[g.successors[k]!] === SUCCEEDED) expect(run.states[v]).toBe(SUCCEEDED);
          }
        }
      }),
    );
  });

  it('fail-fast on one worker runs nodes in order until the first failure, then cancels the rest', () => {
    const g = compileGraph(randomDag({ costs: [1, 1, 1, 1], pairs: [], order: [0, 1, 2, 3] }));
    const { run } = schedule(g, 1, 'fifo', 'fail-fast', (v) => v === 1);
    expect(Array.from(run.states, (s) => NODE_STATES[s])).toEqual([
      'succeeded',
      'failed',
      'cancelled',
      'cancelled',
    ]);
    expect(run.rootCause).toEqual({ node: 'n1', index: 1, message: 'node 1 failed' });
  });

  it('throws ILLEGAL_TRANSITION on a transition the state machine does not allow', () => {
    const states = Uint8Array.of(SUCCEEDED, READY);
    expect(() => transition(states, 0, RUNNING, (i) => `n${i}`)).toThrow(
      /node n0: succeeded → running/,
    );
    const g = compileGraph(randomDag({ costs: [1], pairs: [], order: [0] }));
    const run = new GraphRun(g, { policy: 'fifo', errorMode: 'continue' }, 0);
    expect(() => run.succeeded(0, 1, 1)).toThrow(
      expect.objectContaining({ code: 'ILLEGAL_TRANSITION' }),
    );
  });

  it('picks ready nodes in policy order', () => {
    // Four independent nodes with costs 3, 1, 4, 2 on one worker.
    const g = compileGraph(randomDag({ costs: [3, 1, 4, 2], pairs: [], order: [0, 1, 2, 3] }));
    const order = (policy: GraphPolicy) => {
      const run = new GraphRun(g, { policy, errorMode: 'continue' }, 0);
      return [run.next(), run.next(), run.next(), run.next()];
    };
    expect(order('fifo')).toEqual([0, 1, 2, 3]);
    expect(order('lifo')).toEqual([3, 2, 1, 0]);
    expect(order('sjf')).toEqual([1, 3, 0, 2]);
    expect(order('ljf')).toEqual([2, 0, 3, 1]);
    expect(order('critical-path')).toEqual([2, 0, 3, 1]);
  });
});
