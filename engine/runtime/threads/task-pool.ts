/**
 * `TaskPool`: many small, non-preemptive tasks (`{ fn, arg, priority }`) on worker threads, in
 * priority order (smaller = sooner, FIFO among equals), each answered with a promise.
 *
 * Dispatch costs no message per task: the pool pops tasks from its queue into each worker's ring
 * of slots in shared memory (task-ring.ts), publishes them with one `Atomics.store` + `notify`,
 * and hears back once per batch. Only a bounded number of tasks is handed out ahead (`depth` per
 * worker, sized to ~`aheadNanos` of measured work, at most the ring), so a more urgent task
 * submitted later still overtakes everything not yet handed out.
 *
 * A worker that dies is replaced; the tasks it held are rejected with `WORKER_LOST`.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import { invalidConfig, SchedLabError } from '../../../shared/errors.ts';
import {
  DEFAULT_PRIORITY_QUEUE_CONFIG,
  PriorityTaskQueue,
  type PriorityQueueConfig,
} from '../../core/priority/index.ts';
import type { ModuleRef } from '../backend.ts';
import { nanosSince, originNow } from './clock.ts';
import type { FromTaskWorker, TaskFunctionRef, TaskWorkerData } from './protocol.ts';
import { BUILTIN_TASKS } from './task-functions.ts';
import { BootBackoff } from './boot-backoff.ts';
import { MAX_BATCH, TaskBatches, type Batch } from './task-batches.ts';
import type { TaskQueue } from './task-queue.ts';
import { ARG, HEADER, RESULT, TaskRing } from './task-ring.ts';
import { WorkerHost } from './worker-host.ts';

export interface TaskSpec {
  /** A built-in task (task-functions.ts) or a name given in `TaskPoolOptions.functions`. */
  readonly fn: string;
  readonly arg?: unknown;
  /** 0..100, smaller = more urgent; default 50. */
  readonly priority?: number;
}

export interface TaskPoolOptions {
  readonly workers?: number;
  /** User functions by task name: `fn(arg, ctx)` exports of modules (user-module.ts). */
  readonly functions?: Readonly<Record<string, ModuleRef>>;
  /** Slots per worker ring (a power of two); default 32768 (512 KiB of shared memory). */
  readonly ringSlots?: number;
  /** How much measured work to hand each worker ahead (ns); default 5 ms. */
  readonly aheadNanos?: number;
  /** Default: the PRIO queue (`PriorityTaskQueue`) with `queueConfig`; it orders batches. */
  readonly queue?: TaskQueue<Batch<Pending>>;
  /** Knobs of the default queue: aging, `maxQueued` (a task beyond it is rejected), … */
  readonly queueConfig?: Partial<PriorityQueueConfig>;
  readonly resourceLimits?: ResourceLimits;
}

export interface Pending {
  readonly fnId: number;
  readonly arg: unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

interface PoolWorker {
  host: WorkerHost;
  ring: TaskRing;
  argPort: MessagePort;
  /** The promise of each handed-out task, by slot. */
  pending: (Pending | undefined)[];
  head: number;
  acked: number;
  depth: number;
  nanosPerTask: number;
  booted: boolean;
  /** Lost before it was ready: waiting out a backoff, takes no tasks. */
  down: boolean;
}

const MIN_DEPTH = 8;
const INITIAL_DEPTH = 64;
/** Aging moves in steps of seconds; re-evaluating it (O(queued)) once a second is plenty. */
const AGING_TICK_NANOS = 1_000_000_000;

export class TaskPool {
  private readonly names = new Map<string, number>();
  private readonly refs: TaskFunctionRef[] = [];
  private readonly workers: PoolWorker[] = [];
  private readonly queue: TaskBatches<Pending>;
  private readonly ringSlots: number;
  private readonly aheadNanos: number;
  private pumpQueued = false;
  private closed = false;
  private completedCount = 0;
  private readonly origin = originNow();
  private lastTick = 0;
  private readonly backoff = new BootBackoff();
  private readonly respawns = new Set<NodeJS.Timeout>();

  constructor(private readonly options: TaskPoolOptions = {}) {
    const workers = options.workers ?? availableParallelism();
    if (!Number.isInteger(workers) || workers < 1 || workers > 256) {
      throw invalidConfig('workers', `must be an integer from 1 to 256, got ${workers}`);
    }
    this.ringSlots = options.ringSlots ?? 32_768;
    if (!Number.isInteger(Math.log2(this.ringSlots)) || this.ringSlots < 2 * MAX_BATCH) {
      throw invalidConfig('ringSlots', `must be a power of two >= ${2 * MAX_BATCH}`);
    }
    this.aheadNanos = options.aheadNanos ?? 5_000_000;
    const queueConfig = options.queueConfig ?? {};
    this.queue = new TaskBatches(
      options.queue ?? new PriorityTaskQueue<Batch<Pending>>(queueConfig),
      queueConfig.maxQueued ?? DEFAULT_PRIORITY_QUEUE_CONFIG.maxQueued,
    );
    for (const name of Object.keys(BUILTIN_TASKS)) this.register(name, { kind: 'builtin', name });
    for (const [name, ref] of Object.entries(options.functions ?? {})) {
      this.register(name, { kind: 'module', ref });
    }
    for (let i = 0; i < workers; i++) this.workers.push(this.spawn(i));
  }

  /** Tasks waiting in the queue, not yet handed to a worker. */
  get queued(): number {
    return this.queue.size;
  }

  get completed(): number {
    return this.completedCount;
  }

  run(task: TaskSpec): Promise<unknown> {
    if (this.closed) throw new SchedLabError('ENGINE_CLOSED', 'the task pool is closed');
    const fnId = this.names.get(task.fn);
    if (fnId === undefined) {
      throw new SchedLabError('UNKNOWN_KERNEL', `fn names no task function: ${task.fn}`, 'fn');
    }
    const done = new Promise<unknown>(capture);
    const { resolve, reject } = captured;
    // The queue validates the priority and its bound; a task it refuses is never started.
    this.queue.push({ fnId, arg: task.arg, resolve, reject }, task.priority ?? 50);
    if (!this.pumpQueued) {
      this.pumpQueued = true;
      queueMicrotask(this.pump);
    }
    return done;
  }

  /** Rejects what is queued or running with `ENGINE_CLOSED` and ends the workers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.respawns) clearTimeout(timer);
    const error = new SchedLabError('ENGINE_CLOSED', 'the task pool is closed');
    for (let batch = this.queue.pop(); batch !== null; batch = this.queue.pop()) {
      for (const task of batch) task.reject(error);
    }
    const workers = this.workers.splice(0);
    for (const worker of workers) this.rejectHeld(worker, error);
    await Promise.all(workers.map((worker) => worker.host.retire()));
  }

  private register(name: string, ref: TaskFunctionRef): void {
    this.names.set(name, this.refs.length);
    this.refs.push(ref);
  }

  /** Hands queued tasks to every worker up to its depth, most urgent first. */
  private readonly pump = (): void => {
    this.pumpQueued = false;
    this.queue.seal();
    const now = nanosSince(this.origin);
    if (now - this.lastTick >= AGING_TICK_NANOS) {
      this.lastTick = now;
      this.queue.tick(now);
    }
    for (const worker of this.workers) {
      if (this.queue.size === 0) return;
      if (!worker.down) this.fill(worker);
    }
  };

  private fill(worker: PoolWorker): void {
    const { ring, pending } = worker;
    const { meta, numbers, mask } = ring;
    const start = worker.head;
    let head = start;
    // Whole batches only: a worker may pass its depth by less than one batch (the ring has room).
    while (((head - worker.acked) | 0) < worker.depth) {
      const batch = this.queue.pop();
      if (batch === null) break;
      for (const item of batch) {
        const slot = head & mask;
        meta[2 * slot] = item.fnId;
        if (typeof item.arg === 'number') {
          numbers[slot] = item.arg;
          meta[2 * slot + 1] = ARG.NUMBER;
        } else {
          worker.argPort.postMessage(item.arg);
          meta[2 * slot + 1] = ARG.MESSAGE;
        }
        pending[slot] = item;
        head = (head + 1) | 0;
      }
    }
    if (head === start) return;
    worker.head = head;
    // Hear back when half of what is out is done, so the next batch is ready before it runs dry.
    const outstanding = (head - worker.acked) | 0;
    Atomics.store(ring.header, HEADER.WANT, (head - (outstanding >> 1)) | 0);
    Atomics.store(ring.header, HEADER.HEAD, head);
    Atomics.notify(ring.header, HEADER.HEAD);
  }

  private progress(
    worker: PoolWorker,
    message: Extract<FromTaskWorker, { type: 'progress' }>,
  ): void {
    const { ring, pending } = worker;
    const { meta, numbers, mask } = ring;
    let next = 0;
    for (let seq = worker.acked; seq !== message.upTo; seq = (seq + 1) | 0) {
      const slot = seq & mask;
      const task = pending[slot]!;
      pending[slot] = undefined;
      const tag = meta[2 * slot + 1];
      if (tag === RESULT.NUMBER) task.resolve(numbers[slot]);
      else if (tag === RESULT.VALUE) task.resolve(message.values[next++]);
      else task.reject(new SchedLabError('KERNEL_FAILED', String(message.values[next++])));
    }
    worker.acked = message.upTo;
    this.completedCount += message.count;
    // Hand out about `aheadNanos` of work: deep rings for tiny tasks, shallow for long ones.
    const perTask = message.busyNanos / Math.max(1, message.count);
    worker.nanosPerTask =
      worker.nanosPerTask === 0 ? perTask : 0.7 * worker.nanosPerTask + 0.3 * perTask;
    const ideal = Math.round(this.aheadNanos / Math.max(1, worker.nanosPerTask));
    worker.depth = Math.max(MIN_DEPTH, Math.min(this.ringSlots - MAX_BATCH, ideal));
    // Batches of long tasks stay small, so a later urgent task waits behind little.
    const shallowest = Math.min(...this.workers.map((l) => l.depth));
    this.queue.batchLimit = Math.max(1, Math.min(MAX_BATCH, shallowest >> 2));
    this.pump();
  }

  private spawn(index: number): PoolWorker {
    const ring = TaskRing.create(this.ringSlots);
    const { port1, port2 } = new MessageChannel();
    const data: TaskWorkerData = {
      role: 'tasks',
      ring: ring.buffer,
      functions: this.refs,
      argPort: port2,
    };
    const worker: PoolWorker = {
      ring,
      argPort: port1,
      pending: new Array<Pending | undefined>(this.ringSlots),
      head: 0,
      acked: 0,
      depth: Math.min(INITIAL_DEPTH, this.ringSlots),
      nanosPerTask: 0,
      booted: false,
      down: false,
      host: new WorkerHost({
        entry: 'task-worker-entry.ts',
        workerData: { ...data },
        transferList: [port2],
        ...(this.options.resourceLimits === undefined
          ? {}
          : { resourceLimits: this.options.resourceLimits }),
        onMessage: (message) => {
          const m = message as FromTaskWorker;
          // A lost worker's tasks are settled already; a message still in flight is stale.
          if (this.workers[index] !== worker || worker.down) return;
          if (m.type === 'progress') this.progress(worker, m);
          else {
            worker.booted = true;
            this.backoff.started(index);
          }
        },
        onLost: (reason) => this.lost(index, worker, reason),
      }),
    };
    return worker;
  }

  private lost(index: number, worker: PoolWorker, reason: string): void {
    if (this.closed || this.workers[index] !== worker) return;
    worker.argPort.close();
    this.rejectHeld(worker, new SchedLabError('WORKER_LOST', `worker lost: ${reason}`));
    if (worker.booted) return this.replace(index);
    worker.down = true;
    const timer = setTimeout(() => {
      this.respawns.delete(timer);
      if (!this.closed && this.workers[index] === worker) this.replace(index);
    }, this.backoff.failed(index));
    this.respawns.add(timer);
  }

  private replace(index: number): void {
    this.workers[index] = this.spawn(index);
    this.pump();
  }

  private rejectHeld(worker: PoolWorker, error: SchedLabError): void {
    for (let seq = worker.acked; seq !== worker.head; seq = (seq + 1) | 0) {
      worker.pending[seq & worker.ring.mask]?.reject(error);
    }
    worker.pending.fill(undefined);
    worker.acked = worker.head;
  }
}

/** One shared executor instead of a closure per task: tiny tasks feel every allocation. */
const captured: { resolve: Pending['resolve']; reject: Pending['reject'] } = {
  resolve: () => {},
  reject: () => {},
};
function capture(resolve: Pending['resolve'], reject: Pending['reject']): void {
  captured.resolve = resolve;
  captured.reject = reject;
}
