import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGraphDocument, type GraphPolicy } from '../../../shared/graph.ts';
import { compileDocument, compileGraph, type CompiledGraph } from '../../core/graph/compile.ts';
import { NODE_STATES } from '../../core/graph/node-state.ts';
import { descendants, randomDag } from '../../core/graph/random-dag.ts';
import { dagInput as graphInput } from './testing.ts';
import { oneTaskJob, leaves, simRig, spin } from '../executor/testing.ts';
import { ExecutorGraph, type ExecutorGraphOptions } from './executor-graph.ts';

const MS = 1e6;
const POLICIES: GraphPolicy[] = ['fifo', 'lifo', 'most-successors', 'sjf', 'ljf', 'critical-path'];

const dagInput = graphInput(30);

/** Runs `graph` as a job of a sim executor; records when each node went in and came out. */
async function simulate(graph: CompiledGraph, workers: number, options: ExecutorGraphOptions = {}) {
  const { sim, ex, ends } = simRig({ workers });
  const released = new Map<number, number>();
  const ended = new Map<number, number>();
  const run = new ExecutorGraph(ex, graph, {
    ...options,
    onNode: (e) => {
      if (e.kind === 'started') released.set(e.node, ex.now());
      else ended.set(e.node, ex.now());
    },
  });
  sim.runUntilIdle();
  const report = await run.done;
  return { report, released, ended, ex, ends, sim };
}

describe('a graph run as one executor job', () => {
  it('runs every node once, releasing a node only after its predecessors ended', async () => {
    await fc.assert(
      fc.asyncProperty(
        dagInput,
        fc.constantFrom(...POLICIES),
        fc.integer({ min: 1, max: 4 }),
        async (input, policy, p) => {
          const { failProbability: _none, ...healthy } = input;
          const g = compileGraph(randomDag(healthy));
          const { report, released, ended, ends } = await simulate(g, p, { policy });
          expect(report.counts.succeeded).toBe(g.nodeCount);
          expect(report.splits).toBe(g.nodeCount);
          for (let v = 0; v < g.nodeCount; v++) {
            for (let k = g.successorStart[v]!; k < g.successorStart[v + 1]!; k++) {
              expect(released.get(g.successors[k]!)!).toBeGreaterThanOrEqual(ended.get(v)!);
            }
          }
          expect(report.makespanNanos).toBeGreaterThanOrEqual(report.lowerBoundNanos);
          // The job ends when the graph does, succeeded.
          expect(ends.map((e) => [e.jobId, e.state])).toEqual([[report.jobId, 'succeeded']]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('continue mode: failing nodes end failed after their retries, their descendants skipped', async () => {
    await fc.assert(
      fc.asyncProperty(dagInput, async (input) => {
        const g = compileGraph(randomDag(input));
        const { report, ends } = await simulate(g, 2, { errorMode: 'continue' });
        const failed = [...Array(g.nodeCount).keys()].filter((v) => input.failProbability[v] === 1);
        const skipped = descendants(g, failed);
        const expected = [...Array(g.nodeCount).keys()].map((v) =>
          skipped.has(v) ? 'skipped' : failed.includes(v) ? 'failed' : 'succeeded',
        );
        expect(Array.from(report.states, (s) => NODE_STATES[s])).toEqual(expected);
        const tried = failed.filter((v) => !skipped.has(v));
        expect(report.attempts).toBe(
          expected.filter((s) => s === 'succeeded').length +
            tried.reduce((a, v) => a + 1 + input.retries[v]!, 0),
        );
        // The job ends when the graph does: failed when a node failed.
        expect(ends.map((e) => e.state)).toEqual([tried.length > 0 ? 'failed' : 'succeeded']);
      }),
      { numRuns: 60 },
    );
  });

  it('fail-fast stops a long node that is running when another fails, and cancels the job', async () => {
    const g = compileDocument(
      parseGraphDocument({
        nodes: [
          { id: 'boom', cost: 1, failProbability: 1 },
          { id: 'long', cost: 100 },
          { id: 'after', cost: 1 },
        ],
        edges: [{ from: 'long', to: 'after' }],
      }),
    );
    const { report, ends } = await simulate(g, 2, { errorMode: 'fail-fast' });
    expect(Array.from(report.states, (s) => NODE_STATES[s])).toEqual([
      'failed',
      'cancelled',
      'cancelled',
    ]);
    expect(report.rootCause?.node).toBe('boom');
    expect(report.rootCause?.message).toMatch(/injected failure/);
    expect(report.makespanNanos).toBe(1 * MS);
    // The job fails with the graph's root cause (its other nodes were cancelled with it).
    expect(ends.map((e) => e.state)).toEqual(['failed']);
    expect(ends[0]?.error).toMatch(/^boom: injected failure/);
  });

  it('shares the executor with other jobs: nothing is paused, both finish', async () => {
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 10, cost: 5 }));
    const { sim, ex, ends } = simRig({ workers: 2 });
    const other = ex.submitJob(oneTaskJob('batch', leaves(4, spin(20))));
    const run = new ExecutorGraph(ex, g, { class: 'graph' });
    sim.runUntilIdle();
    const report = await run.done;
    expect(ex.paused).toBe(false);
    expect(report.counts.succeeded).toBe(10);
    expect(new Map(ends.map((e) => [e.jobId, e.state]))).toEqual(
      new Map([
        [other, 'succeeded'],
        [report.jobId, 'succeeded'],
      ]),
    );
    // The graph's quanta are the executor's: its spans carry the graph job's id.
    const spans = ex.spans.read(0).columns;
    let graphSpans = 0;
    for (let i = 0; i < spans.count; i++) if (spans.job[i] === report.jobId) graphSpans++;
    expect(graphSpans).toBeGreaterThanOrEqual(10);
  });

  it('cancel: the job ends cancelled and every node not run is cancelled', async () => {
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 10, cost: 5 }));
    const { sim, ex, ends } = simRig({ workers: 2 });
    const run = new ExecutorGraph(ex, g);
    sim.runUntil(12 * MS);
    run.cancel();
    sim.runUntilIdle();
    const report = await run.done;
    expect(report.counts.succeeded).toBe(2);
    expect(report.counts.cancelled).toBe(8);
    expect(ends.map((e) => e.state)).toEqual(['cancelled']);
  });

  it('cancel: the work of a node cancelled while it ran counts, as the Gantt shows it', async () => {
    // Node 2 of the chain runs 10–15 ms, in 1 ms quanta (spin): cancelled at 12.5 ms, it has run
    // about 2.5 ms on a worker. Its split ends once its running quantum returns; the graph run
    // had marked the node cancelled with no work at the cancel, so W missed all of its quanta.
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 10, cost: 5 }));
    const { sim, ex } = simRig({ workers: 2, quantumMs: 1 });
    const run = new ExecutorGraph(ex, g);
    sim.runUntil(12.5 * MS);
    run.cancel();
    sim.runUntilIdle();
    const report = await run.done;
    const spans = ex.spans.read(0).columns;
    let spanned = 0;
    for (let i = 0; i < spans.count; i++) {
      if (spans.job[i] === report.jobId) spanned += spans.end[i]! - spans.start[i]!;
    }
    expect(spanned).toBeGreaterThan(11 * MS);
    expect(report.workNanos).toBe(spanned);
    expect(report.counts.cancelled).toBe(8);
  });

  it('the executor closing while a node runs still ends the run with its report', async () => {
    // A node cancelled mid-quantum is waited for until that quantum is back; a closed backend
    // never sends it, and the run must not wait for it for ever.
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 10, cost: 5 }));
    const { sim, ex } = simRig({ workers: 2, quantumMs: 1 });
    const run = new ExecutorGraph(ex, g);
    sim.runUntil(12.5 * MS);
    await ex.close();
    const report = await Promise.race([
      run.done,
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 2_000)),
    ]);
    expect(report?.counts).toMatchObject({ succeeded: 2, cancelled: 8 });
  });

  it('a user cancelling the job from the executor stops the graph too', async () => {
    const g = compileDocument(parseGraphDocument({ generator: 'chain', length: 10, cost: 5 }));
    const { sim, ex } = simRig({ workers: 2 });
    const run = new ExecutorGraph(ex, g);
    sim.runUntil(7 * MS);
    ex.cancelJob(run.jobId);
    sim.runUntilIdle();
    const report = await run.done;
    expect(report.counts.succeeded).toBe(1);
    expect(report.counts.cancelled).toBe(9);
  });
});

describe('a graph run beside jobs that fill maxQueued', () => {
  it('runs to its end: its nodes, admitted with it, are not refused QUEUE_FULL mid-run', async () => {
    // Before: once another job had filled the queue, the next node was refused QUEUE_FULL and
    // the graph run ended there, its job recorded as cancelled by request.
    const { sim, ex, ends } = simRig({ workers: 1, quantumMs: 10, maxQueued: 3, policy: 'fifo' });
    const doc = parseGraphDocument({ generator: 'chain', length: 10, cost: 5 });
    const run = new ExecutorGraph(ex, compileDocument(doc));
    sim.runUntil(12 * MS);
    ex.submitJob(oneTaskJob('other', leaves(3, spin(50)))); // fills the queue: 3 of 3
    sim.runUntilIdle();
    const result = await run.done;
    expect(result.counts['succeeded']).toBe(10);
    expect(ends.map((e) => e.state)).toEqual(['succeeded', 'succeeded']);
    // The bound still holds for other jobs: one of four waiting splits is refused whole.
    const over = ex.submitJob(oneTaskJob('over', leaves(4, spin(1))));
    expect(ex.jobState(over)).toBe('rejected');
  });
});
