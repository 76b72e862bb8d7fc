// Graph runs that report the truth: only the settings that applied, every span the executor let
// go counted when a trace is kept, each graph compiled once, and on threads a lower bound and an
// efficiency made from measured figures only.
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { parseWorkload } from '../../../shared/workload.ts';
import { formatReport } from './format.ts';
import { runWorkload } from './run-workload.ts';

const compiles = vi.hoisted(() => ({ count: 0 }));
const schemaChecks = vi.hoisted(() => ({ count: 0, taken: 0 }));
vi.mock('../../../shared/graph.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../shared/graph.ts')>();
  return {
    ...real,
    parseGraphDocument: (...args: Parameters<typeof real.parseGraphDocument>) => {
      schemaChecks.count++;
      return real.parseGraphDocument(...args);
    },
    checkedGraphDocument: (...args: Parameters<typeof real.checkedGraphDocument>) => {
      schemaChecks.taken++;
      return real.checkedGraphDocument(...args);
    },
  };
});
vi.mock('../../core/graph/compile.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../core/graph/compile.ts')>();
  return {
    ...real,
    compileDocumentSteps: (...args: Parameters<typeof real.compileDocumentSteps>) => {
      compiles.count++;
      return real.compileDocumentSteps(...args);
    },
  };
});

const graphWorkload = (graph: unknown, config: Record<string, unknown> = { workers: 2 }) =>
  parseWorkload({ name: 'g', config, graph });

describe('graph runs that report the truth', () => {
  it('schema-checks each graph document once (its workload check) and compiles it once per run', async () => {
    const workload = graphWorkload([
      { generator: 'chain', length: 5, cost: 1 },
      { generator: 'diamond', cost: 1 },
    ]);
    compiles.count = 0;
    schemaChecks.count = 0;
    schemaChecks.taken = 0;
    await runWorkload(workload);
    // The run takes each document as parseWorkload's check parsed it, parsing none again (a
    // 2^20-node document's second parse took seconds).
    expect(schemaChecks.taken).toBe(2);
    expect(schemaChecks.count).toBe(0);
    expect(compiles.count).toBe(2);
  });

  it('checks every graph of a list before the first runs', async () => {
    // Before: graph[1] was compiled at its turn — never, after graph[0] failed fast (exit 0),
    // and only after graph[0]'s nodes had run otherwise; its kernel was named `kernel` alone.
    const failing = { nodes: [{ id: 'a', cost: 5, failProbability: 1 }] };
    const cyclic = {
      nodes: [{ id: 'p' }, { id: 'q' }],
      edges: [
        { from: 'p', to: 'q' },
        { from: 'q', to: 'p' },
      ],
    };
    await expect(runWorkload(graphWorkload([failing, cyclic]))).rejects.toMatchObject({
      code: 'INVALID_GRAPH',
      message: expect.stringMatching(/^graph\[1\]/),
    });
    const unknown = { nodes: [{ id: 'z', kernel: 'nosuch' }] };
    await expect(runWorkload(graphWorkload([failing, unknown]))).rejects.toMatchObject({
      code: 'UNKNOWN_KERNEL',
      field: 'graph[1].nodes[0].kernel',
    });
  });

  it('counts a work-stealing run’s quanta as the node attempts it made, not its nodes', async () => {
    // Before: the node count, the skipped descendants of a failed node included.
    const { report } = await runWorkload(
      graphWorkload(
        {
          executor: 'stealing',
          errorMode: 'continue',
          nodes: [
            { id: 'a', kernel: 'fail' },
            { id: 'b', kernel: 'add' },
            { id: 'c', kernel: 'add' },
            { id: 'd', kernel: 'add' },
          ],
          edges: [
            { from: 'a', to: 'b' },
            { from: 'b', to: 'c' },
          ],
        },
        { workers: 2 },
      ),
      { backend: 'threads' },
    );
    expect(report.counters.quanta).toBe(2); // a (failed) and d; b and c skipped
    expect(report.levels[0]?.selections).toBe(2);
  });

  it('a list runs under its first document’s settings and stops after a fail-fast failure, as the app does', async () => {
    const { report } = await runWorkload(
      graphWorkload([
        {
          nodes: [
            { id: 'a', cost: 1, failProbability: 1 },
            { id: 'b', cost: 1 },
          ],
        },
        { generator: 'chain', length: 5, cost: 1, policy: 'lifo', errorMode: 'continue' },
      ]),
    );
    // The second graph asked for lifo and continue: the run's settings are the first's.
    expect(report.dags?.map((d) => d.policy)).toEqual(['fifo']);
    expect(report.classes['graph-0']).toMatchObject({ jobs: 1, failed: 1 });
    expect(report.classes['chain-1']).toMatchObject({ jobs: 1, succeeded: 0, cancelled: 1 });
    expect(report.classes['chain-1']?.scheduledMs).toBe(0);

    const { report: both } = await runWorkload(
      graphWorkload([
        { nodes: [{ id: 'a', cost: 1, failProbability: 1 }], errorMode: 'continue' },
        { generator: 'chain', length: 5, cost: 1, policy: 'lifo' },
      ]),
    );
    expect(both.dags?.map((d) => d.policy)).toEqual(['fifo', 'fifo']);
    expect(both.classes['chain-1']).toMatchObject({ succeeded: 1, cancelled: 0 });
  });

  it('says what ordered a graph run and leaves out what it did not measure', async () => {
    // Before: the header said `policy mlfq` (the engine's default, which never applied), each
    // graph's wait read 0 unmeasured, and Jain was 1 whatever the graphs got.
    const { report } = await runWorkload(
      graphWorkload([
        { generator: 'chain', length: 8, cost: 1, policy: 'lifo' },
        { generator: 'independent', count: 8, cost: 1 },
      ]),
    );
    const text = formatReport(report);
    expect(text.split('\n')[0]).toContain('· graph policy lifo ·');
    expect(text).not.toContain('policy mlfq');
    const chain = text.split('\n').find((l) => l.startsWith('chain-0'))!;
    expect(chain.split(/\s+/).slice(-4, -2)).toEqual(['-', '-']); // wait p95, wait max
    expect(report.classes['chain-0']?.waitMs).toBeUndefined();
    // A chain of 8 on 2 workers runs at half the rate per node that 8 independent nodes do.
    expect(report.fairness.jain).toBeCloseTo((1.5 * 1.5) / (2 * (1 + 0.25)), 2);

    const stealing = await runWorkload(
      graphWorkload({ generator: 'chain', length: 8, executor: 'stealing' }),
      { backend: 'threads' },
    );
    expect(formatReport(stealing.report).split('\n')[0]).toContain('· executor stealing ·');
  });

  it('a graph run’s trace says what ran: workload, backend, seed, executor and graph policy', async () => {
    // Before: a job run's trace had these in otherData, a graph run's none.
    const { trace } = await runWorkload(
      graphWorkload({ generator: 'chain', length: 4, cost: 1, policy: 'lifo' }),
      { trace: true, seed: 7 },
    );
    expect(trace!.otherData).toMatchObject({
      workload: 'g',
      backend: 'sim',
      seed: 7,
      workers: 2,
      executor: 'central',
      policy: 'lifo',
    });
  });

  it('--trace over the span ring counts the spans the executor let go and reports them', async () => {
    // 70,000 nodes on the central executor, whose span ring keeps the last 65,536.
    const { report, trace } = await runWorkload(
      graphWorkload({ generator: 'independent', count: 70_000, cost: 0.001 }),
      { trace: true, traceCapacity: 200_000 },
    );
    expect(report.dags?.[0]?.droppedSpans).toBe(70_000 - 65_536);
    expect(report.counters.spansDropped).toBe(70_000 - 65_536);
    expect(trace).not.toBeNull();
  });

  it('names no ready-queue policy for a work-stealing run; measured CP and LB on threads, declared beside', async () => {
    const { report } = await runWorkload(
      graphWorkload({
        generator: 'chain',
        length: 3,
        cost: 20,
        executor: 'stealing',
        policy: 'critical-path',
      }),
      { backend: 'threads' },
    );
    const dag = report.dag!;
    expect(report.dags?.[0]?.executor).toBe('stealing');
    expect(report.dags?.[0]).not.toHaveProperty('policy');
    // Nodes with a cost run on the workers.
    expect(report.dags?.[0]).not.toHaveProperty('solo');
    expect(dag.declaredCriticalPathMs).toBe(60);
    expect(dag.declaredWorkMs).toBe(60);
    // Measured on the run's own clock: the node costs were honoured, and nothing beats the bound.
    expect(dag.criticalPathMs).toBeGreaterThanOrEqual(60);
    expect(dag.criticalPathMs).toBeLessThanOrEqual(report.makespanMs);
    expect(dag.lowerBoundMs).toBeLessThanOrEqual(report.makespanMs);
    expect(dag.efficiency).toBeLessThanOrEqual(1);
  });

  it('--trace on a work-stealing run says how its spans were sampled', async () => {
    const { report } = await runWorkload(
      graphWorkload({
        generator: 'independent',
        count: 20_001,
        kernel: 'noop',
        executor: 'stealing',
      }),
      { backend: 'threads', trace: true },
    );
    // At most 256 spans are kept by sampling one node in ceil(20,001 / 256) = 79: not a drop.
    expect(report.dags?.[0]?.spanSampleEvery).toBe(79);
    expect(report.dags?.[0]?.droppedSpans).toBeUndefined();
    // 20,001 instant nodes without cost: run solo on the calling thread, and the report says so.
    expect(report.dags?.[0]?.solo).toBe(true);
  });
});

describe('a graph that failed', () => {
  it('names its root cause, and counts its nodes by how they ended', async () => {
    const { report } = await runWorkload(
      graphWorkload({
        nodes: [
          { id: 'a', cost: 5 },
          { id: 'bad', cost: 5, failProbability: 1, retries: 2 },
          { id: 'slow', cost: 300 },
          { id: 'after', cost: 5 },
        ],
        edges: [
          { from: 'a', to: 'bad' },
          { from: 'a', to: 'slow' },
          { from: 'bad', to: 'after' },
        ],
      }),
    );
    // Before: `failed: 4` (failed, cancelled and skipped together) and no word of `bad` anywhere.
    expect(report.dags?.[0]).toMatchObject({
      failed: 1,
      cancelled: 2,
      skipped: 0,
      rootCause: { node: 'bad', message: expect.stringMatching(/injected failure/) },
    });
    expect(report.failures).toEqual({
      KERNEL_FAILED: { jobs: 1, first: expect.stringMatching(/^graph g: node bad: injected/) },
    });
    const text = formatReport(report);
    expect(text).toMatch(/KERNEL_FAILED 1 · graph g: node bad: injected failure/);
    // The text has the graph figures too (before: `--json` only), and the root cause.
    expect(text).toMatch(/graph +executor +nodes +ok +failed +cancelled +skipped +W +CP +LB/);
    expect(text).toMatch(/^g +central fifo +4 +1 +1 +2 +0 /m);
    expect(text).toMatch(/^g: root cause bad: injected failure/m);
  });
});

describe('a central graph run on threads', () => {
  it(
    'applies the run’s hard limit: a cancelled node that never yields is killed, the run ends',
    {
      timeout: 60_000,
    },
    async () => {
      const stuck = fileURLToPath(
        new URL('../../runtime/threads/fixtures/stuck.mjs', import.meta.url),
      );
      const workload = graphWorkload(
        {
          nodes: [
            { id: 'spinner', kernel: { module: stuck, exportName: 'loops' } },
            { id: 'bad', cost: 5, failProbability: 1 },
          ],
        },
        { workers: 2, hardKillAfterMs: 500 },
      );
      const started = Date.now();
      const { report } = await runWorkload(workload, { backend: 'threads' });
      // Before: the node, cancelled by fail-fast, held its worker for the automatic limit of a
      // whole-node quantum (100 minutes), and the run with it; the setting was printed, not applied.
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(report.dags?.[0]).toMatchObject({ failed: 1, rootCause: { node: 'bad' } });
    },
  );
});

describe('a graph of zero costs', () => {
  it('reads no busy time: utilization 0, not 100 %', async () => {
    const { report } = await runWorkload(graphWorkload({ generator: 'chain', length: 4, cost: 0 }));
    expect(report.makespanMs).toBe(0);
    // Before: 0 work over 0 time read as every worker busy (1).
    expect(report.workers.utilization).toBe(0);
    expect(report.dag).toMatchObject({ utilization: 0, efficiency: 1 });
  });
});

describe('a graph stopped by fail-fast', () => {
  it('counts the work of the nodes it cancelled while they ran', async () => {
    const { report } = await runWorkload(
      graphWorkload({
        nodes: [
          { id: 'R', cost: 1 },
          { id: 'B', cost: 10, failProbability: 1, retries: 2 },
          { id: 'C', cost: 100 },
          { id: 'D', cost: 5 },
          { id: 'E', cost: 5 },
        ],
        edges: [
          { from: 'R', to: 'B' },
          { from: 'R', to: 'C' },
          { from: 'B', to: 'D' },
          { from: 'C', to: 'E' },
        ],
      }),
    );
    // R 1 ms, B's three attempts 30 ms, C 30 ms until cancelled at 31 ms: both workers busy
    // but for R's first millisecond. Before: W 31 ms (C left out), utilization 0.5.
    expect(report.makespanMs).toBe(31);
    expect(report.dag).toMatchObject({ workMs: 61, utilization: 0.984 });
    expect(report.workers.utilization).toBe(0.984);
  });
});

describe('a graph of sleeping nodes', () => {
  it('overlaps their waits: a blocked node does not hold a place in the release window', async () => {
    const { report } = await runWorkload(
      graphWorkload({ generator: 'independent', count: 16, cost: 50, kernel: 'sleep' }),
    );
    // 16 nodes each waiting 50 ms, holding no worker while they wait: all at once, 50 ms. Before:
    // the window counted them live, two at a time on 2 workers: 400 ms.
    expect(report.makespanMs).toBeLessThan(60);
    expect(report.dags?.[0]).toMatchObject({ failed: 0, cancelled: 0, skipped: 0 });
  });
});
