/**
 * Work-stealing graph executor (docs/design.md §3.4) for graphs of tiny nodes, where one message per
 * node would dominate: the graph, dependency counters and per-worker deques live in shared memory
 * and workers schedule themselves (`worker-loop.ts`), claiming the roots too. The main thread
 * resets the memory, starts the workers (one woken, the others as helpers when there is work to
 * share, `park.ts`) and waits for the run's end. One run at a time per executor. A small graph of
 * instant nodes runs solo on the calling thread instead (`solo-loop.ts`, option `soloNodes`).
 */
import { originNow } from '../threads/clock.ts';
import { Worker } from 'node:worker_threads';
import { SchedLabError } from '../../../shared/errors.ts';
import type { GraphErrorMode } from '../../../shared/graph.ts';
import type { CompiledGraph } from '../../core/graph/compile.ts';
import { workerStartUrl } from '../compiled.ts';
import { DEFAULT_STEALING_KERNEL, stealingKernel } from './kernels.ts';
import {
  CTL_STOP,
  SAMPLED_SPANS,
  allocateRun,
  resetRun,
  viewRun,
  type RunBuffers,
  type RunViews,
} from './layout.ts';
import type { FromWorker, ToWorker } from './messages.ts';
import { ParkBlock } from './park.ts';
import { checkSoloNodes, runSolo, runsSolo } from './solo-loop.ts';
import { warmSolo } from './warm.ts';
import { buildReport, type StealingReport } from './stealing-report.ts';
import type { LoopStats } from './worker-loop.ts';

export type { StealingReport } from './stealing-report.ts';

export interface StealingRunOptions {
  readonly errorMode?: GraphErrorMode;
  /** Record per-node run counts and global stamps to check exactly-once and order (slower). */
  readonly verify?: boolean;
  /**
   * Record a span for one node in every `sampleEvery` (0 = none). Default: every node of graphs
   * up to `SAMPLED_SPANS` (256) nodes, then one in ceil(nodes / 256), at most 256 spans a run;
   * the report says the rate. A rate that samples more than the rings keep counts the rest as
   * dropped.
   */
  readonly sampleEvery?: number;
}

export interface StealingStartOptions {
  /**
   * The largest graph (in nodes) of instant kernels and no cost that runs solo on the calling
   * thread rather than on the workers (`solo-loop.ts`); 0 = never. Default `SOLO_NODES`.
   */
  readonly soloNodes?: number;
}

interface PendingRun {
  readonly runId: number;
  resolve(stats: LoopStats[]): void;
  reject(e: Error): void;
}

const BOOT = workerStartUrl(
  new URL('./worker-entry.ts', import.meta.url),
  new URL('./worker-boot.mjs', import.meta.url),
);

export class StealingExecutor {
  private pending: PendingRun | null = null;
  /** The last graph's shared memory, reused by its next run (one slot: memory stays bounded). */
  private memory: {
    graph: CompiledGraph;
    buffers: RunBuffers;
    views: RunViews;
    id: number;
  } | null = null;
  /** The memory the workers hold views of (sent with the first run that uses it). */
  private sentMemoryId = 0;
  private nextMemoryId = 1;
  private nextRunId = 1;
  private broken: Error | null = null;
  private closed = false;

  private constructor(
    private readonly workers: Worker[],
    /** Where workers wait between runs (park.ts). */
    private readonly park: ParkBlock,
    private readonly soloNodes: number,
  ) {
    for (const w of workers) {
      w.on('message', (m: FromWorker) => this.onMessage(m));
      w.on('error', (e) =>
        this.fail(new SchedLabError('WORKER_LOST', `stealing worker died: ${e.message}`)),
      );
      w.on('exit', (code) => {
        if (!this.closed)
          this.fail(new SchedLabError('WORKER_LOST', `stealing worker exited with code ${code}`));
      });
    }
  }

  /** Spawns `workers` threads and waits until each is ready. */
  static async start(workers = 2, options: StealingStartOptions = {}): Promise<StealingExecutor> {
    if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        'workers must be an integer in 1..256',
        'workers',
      );
    }
    const soloNodes = checkSoloNodes(options.soloNodes);
    const park = ParkBlock.allocate(workers);
    const threads = Array.from(
      { length: workers },
      (_, workerId) => new Worker(BOOT, { workerData: { workerId, workers, park } }),
    );
    await Promise.all(
      threads.map(
        (t) =>
          new Promise<void>((resolve, reject) => {
            t.once('message', () => resolve());
            t.once('error', reject);
          }),
      ),
    );
    // The solo path is compiled now, while the workers warm up: off every run's path.
    if (soloNodes > 0) warmSolo();
    return new StealingExecutor(threads, new ParkBlock(park, workers), soloNodes);
  }

  get workerCount(): number {
    return this.workers.length;
  }

  async run(graph: CompiledGraph, options: StealingRunOptions = {}): Promise<StealingReport> {
    if (this.closed) throw new SchedLabError('ENGINE_CLOSED', 'the stealing executor is closed');
    if (this.broken !== null) throw this.broken;
    if (this.pending !== null)
      throw new SchedLabError('INVALID_ARGUMENT', 'run: a run is already in progress', 'run');
    const kernelNames = graph.kernels.map((k) => {
      const name = k === null ? DEFAULT_STEALING_KERNEL : typeof k === 'string' ? k : null;
      if (name === null || stealingKernel(name) === undefined) {
        throw new SchedLabError(
          'UNKNOWN_KERNEL',
          `kernel: the stealing executor has no kernel ${JSON.stringify(k)}`,
          'kernel',
        );
      }
      return name;
    });
    refuseInjectedFailures(graph);
    const verify = options.verify ?? false;
    const failFast = (options.errorMode ?? 'fail-fast') === 'fail-fast';
    const sampleEvery =
      options.sampleEvery ?? Math.max(1, Math.ceil(graph.nodeCount / SAMPLED_SPANS));
    const { buffers, views, id: memoryId } = this.memoryFor(graph);
    if (runsSolo(graph, kernelNames, this.soloNodes))
      return runSolo(graph, views, kernelNames, verify, sampleEvery);
    // The workers claim the roots themselves (worker-loop.ts): nothing is seeded here.
    resetRun(views, graph.nodeCount, { verify, timed: graph.workNanos > 0 });

    const runId = this.nextRunId++;
    const ended = this.park.nextRunEnd();
    const running = new Promise<LoopStats[]>((resolve, reject) => {
      this.pending = { runId, resolve, reject };
      void ended.then(() => {
        // A run that failed or was closed meanwhile was settled already.
        if (this.pending?.runId !== runId || !this.park.runEnded) return;
        this.pending = null;
        resolve(this.park.runStats());
      });
      const settings = { runId, failFast, verify, sampleEvery, origin: originNow() };
      const sameMemory = this.sentMemoryId === memoryId;
      if (sameMemory) this.park.writeRun(settings);
      const message: ToWorker = {
        type: 'run',
        ...settings,
        memoryId,
        buffers: sameMemory ? null : buffers,
        kernelNames,
      };
      // Every parked worker is claimed first; the first of them is woken, the others wake as
      // helpers when there is work to share (park.ts); the rest get the message.
      const claimed = this.workers.map((_, i) => sameMemory && this.park.claim(i));
      this.park.start(claimed.flatMap((c, i) => (c ? [i] : [])));
      this.workers.forEach((w, i) => {
        if (claimed[i]) return;
        this.park.release(i);
        w.postMessage(message);
      });
      this.sentMemoryId = memoryId;
    });
    // The report's copy of the states is allocated while the workers run, off the end's path.
    const states = new Uint8Array(graph.nodeCount);
    const stats = await running;
    return buildReport(graph, views, stats, kernelNames, verify, sampleEvery, states, false);
  }

  private memoryFor(graph: CompiledGraph): { buffers: RunBuffers; views: RunViews; id: number } {
    if (this.memory?.graph !== graph) {
      this.memory = null; // let the previous graph's memory go before allocating
      const buffers = allocateRun(graph, this.workers.length);
      this.memory = { graph, buffers, views: viewRun(buffers), id: this.nextMemoryId++ };
    }
    return this.memory;
  }

  /**
   * Cancels the run in progress (if any): nodes not yet started end `cancelled`, a spinning node
   * stops at its next check; the run's promise resolves with the report (no root cause).
   */
  cancel(): void {
    if (this.pending !== null && this.memory !== null)
      Atomics.store(this.memory.views.ctl, CTL_STOP, 1);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fail(new SchedLabError('ENGINE_CLOSED', 'the stealing executor was closed during a run'));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private onMessage(m: FromWorker): void {
    const run = this.pending;
    if (m.type === 'ready' || run === null || m.runId !== run.runId) return;
    // The other workers may be waiting for this one's nodes: the executor cannot be reused.
    this.fail(new SchedLabError('WORKER_LOST', `stealing worker failed: ${m.message}`));
  }

  private fail(e: Error): void {
    if (!this.closed) this.broken ??= e;
    const run = this.pending;
    this.pending = null;
    run?.reject(e);
  }
}

/**
 * The workers' loop draws no injected failures, so a graph asking for them is refused rather than
 * run as if it had not: one document means the same on both executors, and the central one
 * honours `failProbability`.
 */
function refuseInjectedFailures(graph: CompiledGraph): void {
  const chances = graph.failProbability;
  if (chances === null) return;
  const v = chances.findIndex((p) => p > 0);
  if (v < 0) return;
  throw new SchedLabError(
    'INVALID_GRAPH',
    `failProbability (node "${graph.nodeId(v)}"): the stealing executor injects no failures; run the graph on the central executor`,
    'failProbability',
  );
}
