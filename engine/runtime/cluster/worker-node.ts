/**
 * A worker node (`schedlab worker`): N worker threads of the threads backend (the same
 * worker entry, kernels and user-module loader, through `WorkerPool`), fed by a BullMQ worker on
 * this node's own queue. Each job names its worker; the BullMQ worker takes up to
 * `1 + MAX_QUEUED_PER_WORKER` jobs per worker at once and each worker runs its jobs one after another in
 * the order taken, so the next quantum starts the moment the last one ends. It registers and
 * heartbeats in Redis (protocol.ts), obeys cancel and cut messages, and pushes each quantum's
 * measured end onto its coordinator's ends list (also the job's return value). A worker whose
 * thread dies is replaced; its quantum ends `failed` with `WORKER_LOST`.
 *
 * Node lifecycle: `starting` (workers calibrate) → `up` (registered, taking jobs) → `leaving`
 * (`close()`: announced, running quanta finish) → `gone` (deregistered). A node killed outright
 * never says `leaving`: the coordinator finds its heartbeat expired.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Worker as QueueWorker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { SchedLabError } from '../../../shared/errors.ts';
import { nanosSince, originNow } from '../threads/clock.ts';
import { WorkerPool } from '../threads/worker-pool.ts';
import { checkCount, DEFAULT_RESOURCE_LIMITS } from '../threads/threads-options.ts';
import { WallTimers } from '../threads/wall-timers.ts';
import {
  DEFAULT_NAMESPACE,
  HEARTBEAT,
  ENDS_TTL_MS,
  keys,
  NODE_NAME,
  MAX_QUEUED_PER_WORKER,
  type ControlMessage,
  type EndMessage,
  type HeartbeatTiming,
  type NodeRecord,
  type QuantumJob,
  type QuantumResult,
} from './protocol.ts';
import { removeQueue } from './fleet.ts';
import { moduleRefusal, resolveModuleDirs } from './module-dirs.ts';
import { failedResult, WorkerRunner } from './worker-runner.ts';
import { restoreZeros } from './json-value.ts';
import { connectionOptions, parseRedisUrl } from './redis-url.ts';
import { redisReady, unavailable, withTimeout } from './with-timeout.ts';
import { Outage, pipelineRefusal, refusalOf, Refusals } from './refusals.ts';

export interface WorkerNodeOptions {
  readonly redis: string;
  readonly threads: number;
  /** Default: the host name. */
  readonly name?: string;
  readonly namespace?: string;
  readonly heartbeat?: HeartbeatTiming;
  /** Directories user modules may be loaded from (module-dirs.ts); none: built-ins only. */
  readonly moduleDirs?: readonly string[];
  readonly log?: (line: string) => void;
}

/** Cancels (and cuts) that arrived before their quantum started, remembered at most this many. */
const EARLY_CANCELS = 4096;
/** How long a starting node waits for Redis before it gives up (a coordinator's `connect` too). */
const BOOT_MS = 5000;
/** How long a leaving node waits on one Redis step (a heartbeat, its deregistration). */
const REDIS_STEP_MS = 1000;
/** How long a leaving node lets what runs finish before it stops it. */
const FINISH_MS = 30_000;
/** How long quantum ends Redis refused wait before they are written again (ms). */
const ENDS_RETRY_MS = 250;

/** A connection to Redis failing, as ioredis and BullMQ say it (not a reply Redis gave). */
const CONNECTION_FAILURE =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EPIPE|Connection is closed/;

export class WorkerNode {
  readonly instance: string;
  readonly name: string;
  private readonly origin = originNow();
  private readonly timers = new WallTimers(() => nanosSince(this.origin));
  private readonly pool: WorkerPool;
  private readonly runners: WorkerRunner[] = [];
  /**
   * Cancels and cuts (ns) that arrived before their job (a control message can overtake it): a
   * cancel by the quantum's job id, a cut by `splitKey` (a split id alone is only one
   * coordinator's). Bounded, the oldest dropped first
   * (LRU caches: a Map whose first key is deleted each time walks the holes that leaves).
   */
  private readonly earlyCancels = new LRUCache<string, true>({ max: EARLY_CANCELS });
  private readonly earlyCuts = new LRUCache<string, number>({ max: EARLY_CANCELS });
  private readonly redis: Redis;
  private readonly sub: Redis;
  private queueWorker: QueueWorker | null = null;
  private beat: NodeJS.Timeout | null = null;
  private status: NodeRecord['status'] = 'up';
  private closing: Promise<void> | null = null;
  private readonly ns: string;
  private readonly timing: HeartbeatTiming;
  private readonly log: (line: string) => void;
  private readonly startedAt = Date.now();
  private readonly moduleDirs: readonly string[];
  /** Ends not yet written, per coordinator ends list (`reply`). */
  private readonly outbox = new Map<string, string[]>();
  /** Heartbeats and ends Redis refused (refusals.ts): said once, then with a count. */
  private readonly refusals: Refusals;
  /** The pending write of ends Redis refused, if any. */
  private retry: NodeJS.Timeout | null = null;
  /** Left: ends are no longer written. */
  private stopped = false;

  private constructor(
    private readonly options: WorkerNodeOptions,
    private readonly threads: number,
  ) {
    const name = options.name ?? hostname().replace(/[^A-Za-z0-9._-]/g, '-');
    if (!NODE_NAME.test(name)) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `--name ${name}: must be 1 to 64 letters, digits, '.', '_' or '-'`,
        'name',
      );
    }
    this.name = name;
    this.instance = `${name}.${randomBytes(3).toString('hex')}`;
    this.ns = options.namespace ?? DEFAULT_NAMESPACE;
    this.timing = options.heartbeat ?? HEARTBEAT;
    this.log = options.log ?? (() => {});
    this.moduleDirs = resolveModuleDirs(options.moduleDirs ?? []);
    const target = parseRedisUrl(options.redis);
    this.refusals = new Refusals(target.display, (line) => this.log(`redis: ${line}`));
    const connection = connectionOptions(target);
    this.redis = new Redis(connection);
    this.sub = new Redis(connection);
    for (const client of [this.redis, this.sub]) client.on('error', () => {}); // reconnects
    const later = (delayNanos: number, fn: () => void) => {
      this.timers.set(nanosSince(this.origin) + delayNanos, fn);
    };
    this.pool = new WorkerPool(
      this.origin,
      DEFAULT_RESOURCE_LIMITS,
      {
        // A worker respawned after a backoff takes what waited for it.
        ready: (worker) => this.runners[worker.id]?.fill(),
        end: (worker, report) => this.runners[worker.id]?.ended(worker, report),
        // An error from code of a split that already ended fails no split (as on threads).
        stray: (worker, e) => {
          // The thread names a quantum by its local id (worker-runner.ts `nextLocalId`).
          const local = e.splitId;
          const from =
            local === null
              ? '?'
              : (this.runners[worker.id]?.splitOfLocal(local) ?? `an ended quantum (#${local})`);
          this.log(`worker ${worker.id}: uncaught error from split ${from}: ${e.error}`);
        },
        lost: (worker, reason) => this.runners[worker.id]?.lost(worker, reason),
      },
      later,
    );
    for (let w = 0; w < threads; w++) {
      this.runners.push(
        new WorkerRunner(w, {
          worker: () => this.pool.get(w),
          replace: (worker) => this.pool.replace(worker),
          now: () => nanosSince(this.origin),
          earlyCancel: (entry) => this.earlyCancels.delete(entry.jobId),
          earlyCut: (job) => {
            const key = splitKey(job.replyTo, job.splitId);
            const cut = this.earlyCuts.get(key);
            this.earlyCuts.delete(key);
            return cut;
          },
          nodeName: name,
        }),
      );
    }
  }

  /** Starts the workers, then registers and takes jobs; resolves once the node is `up`. */
  static async start(options: WorkerNodeOptions): Promise<WorkerNode> {
    const node = new WorkerNode(options, checkCount(options.threads));
    await node.boot();
    return node;
  }

  private async boot(): Promise<void> {
    this.pool.setTarget(this.threads);
    await this.pool.ready();
    // Redis away: said at once, as a coordinator says it (`connect`), not waited on in silence.
    try {
      const display = parseRedisUrl(this.options.redis).display;
      await redisReady(this.sub, display, BOOT_MS);
      await withTimeout(this.sub.subscribe(keys.control(this.ns, this.instance)), BOOT_MS, () =>
        unavailable(`Redis at ${display} did not answer within ${BOOT_MS} ms`),
      );
    } catch (e) {
      await this.pool.close();
      this.redis.disconnect();
      this.sub.disconnect();
      throw e;
    }
    this.sub.on('message', (_channel: string, text: string) => this.control(text));
    await this.heartbeat();
    this.beat = setInterval(() => void this.heartbeat(), this.timing.everyMs);
    this.queueWorker = new QueueWorker(
      keys.queue(this.instance),
      (job: Job<QuantumJob>) => this.take(job.id ?? '', job.data),
      {
        connection: connectionOptions(parseRedisUrl(this.options.redis)),
        prefix: this.ns,
        // Each worker's running job and those queued behind it (protocol.ts).
        concurrency: this.threads * (1 + MAX_QUEUED_PER_WORKER),
        // Node loss is the coordinator's to detect (heartbeats): a stalled-job check here would
        // run a quantum a second time behind its back.
        skipStalledCheck: true,
        lockDuration: 60_000,
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 1000 },
      },
    );
    const outage = new Outage(parseRedisUrl(this.options.redis).display, (line) =>
      this.log(`redis: ${line}`),
    );
    this.queueWorker.on('error', (e) => {
      // Connection failures come twice a second while Redis is away: said as one outage.
      if (CONNECTION_FAILURE.test(e.message)) outage.failed(e.message);
      else this.log(`redis: ${e.message}`);
    });
    this.redis.on('ready', () => outage.ended());
    this.log(
      `node ${this.instance}: ${this.threads} worker(s) on ${parseRedisUrl(this.options.redis).display}`,
    );
  }

  /** Announces `leaving`, lets what runs finish, deregisters and stops the workers. */
  close(): Promise<void> {
    this.closing ??= this.leave();
    return this.closing;
  }

  private async leave(): Promise<void> {
    this.status = 'leaving';
    // Each step that needs Redis is bounded: with Redis away a stop (a service manager's one
    // SIGTERM) waited on it for good. The coordinator counts the node lost by its heartbeats.
    const bounded = (p: Promise<unknown>, ms: number) =>
      withTimeout(p, ms, () => new Error('redis')).then(
        () => true,
        () => false,
      );
    const display = parseRedisUrl(this.options.redis).display;
    // Redis away: its connection closed, or open and not answering (a stopped process, a host
    // swapping), which only an unanswered step shows. Before, the second waited FINISH_MS for
    // the queue's close and said nothing.
    const answered = await bounded(this.heartbeat(), REDIS_STEP_MS);
    const away = !answered || this.redis.status !== 'ready';
    if (away) {
      this.log(
        `node ${this.instance}: Redis at ${display} does not answer: leaving without it — running quanta are stopped (their ends could not be sent), and the registry entry is left to expire`,
      );
    } else {
      // The coordinator stops dispatching here within one poll; jobs it sent before then still run.
      await new Promise((r) => setTimeout(r, this.timing.pollMs * 2));
    }
    const queue = this.queueWorker;
    if (queue !== null) {
      // What runs finishes and its end is stored; with Redis away it cannot be, so it is not waited for.
      if (away || !(await bounded(queue.close(), FINISH_MS))) {
        if (!away)
          this.log(
            `node ${this.instance}: running quanta did not end within ${FINISH_MS} ms: stopped`,
          );
        if (!(await bounded(queue.close(true), REDIS_STEP_MS))) {
          // Its blocking read waits on a Redis that does not answer: its connections are dropped.
          void queue.disconnect().catch(() => {});
        }
      }
    }
    if (this.beat !== null) clearInterval(this.beat);
    this.stopped = true;
    if (this.retry !== null) clearTimeout(this.retry);
    if (!away) {
      const deregistered = await bounded(
        this.redis
          .multi()
          .hdel(keys.nodes(this.ns), this.instance)
          .del(keys.heartbeat(this.ns, this.instance))
          .exec(),
        REDIS_STEP_MS,
      );
      // Nothing reads this instance's queue again (a node started anew is another instance).
      if (deregistered)
        await bounded(removeQueue(this.redis, this.ns, this.instance), REDIS_STEP_MS);
      else
        this.log(
          `node ${this.instance}: Redis at ${display} did not answer: registry entry left to expire`,
        );
    }
    this.timers.clear();
    await this.pool.close();
    this.redis.disconnect();
    this.sub.disconnect();
    this.log(`node ${this.instance}: left`);
  }

  private async heartbeat(): Promise<void> {
    const record: NodeRecord = {
      instance: this.instance,
      name: this.name,
      workers: this.threads,
      modules: this.moduleDirs.length > 0,
      status: this.status,
      host: hostname(),
      pid: process.pid,
      startedAt: this.startedAt,
    };
    // The registry entry is rewritten with every beat: a Redis that restarted empty has it back
    // within one beat.
    // Redis away: the next beat tries again (the coordinator counts the node by them). A beat
    // Redis refused (out of memory, say) is said: before, the node was lost to its coordinator
    // and only the queue's errors hinted why.
    await this.redis
      .multi()
      .hset(keys.nodes(this.ns), this.instance, JSON.stringify(record))
      .set(keys.heartbeat(this.ns, this.instance), '1', 'PX', this.timing.ttlMs)
      .exec()
      .then(
        () => this.refusals.succeeded(),
        (e: unknown) => this.refusals.failed(e),
      );
  }

  private control(text: string): void {
    let message: ControlMessage;
    try {
      message = JSON.parse(text) as ControlMessage;
    } catch {
      return;
    }
    if (message.type === 'cut') {
      const { coordinator, splitId } = message;
      const runner = this.runners.find((r) => r.holds(coordinator, splitId));
      const key = splitKey(coordinator, splitId);
      if (runner?.cut(coordinator, splitId, message.nanos) !== true)
        this.earlyCuts.set(key, Math.min(message.nanos, this.earlyCuts.get(key) ?? Infinity));
      return;
    }
    // A cancel names one quantum: one that ended before it arrived is not here and never comes,
    // and the split's next quantum is not it.
    const runner = this.runners.find((r) => r.holdsQuantum(message.quantum));
    if (runner !== undefined) runner.cancel(message.quantum);
    else this.earlyCancels.set(message.quantum, true);
  }

  /**
   * A job BullMQ handed over: it runs on its worker after the jobs taken for that worker before it
   * (worker-runner.ts); its end goes to the coordinator the moment the worker reports it.
   */
  private async take(jobId: string, job: QuantumJob): Promise<QuantumResult> {
    const result = await new Promise<QuantumResult>((resolve) => {
      const runner = this.runners[job.worker];
      const { kernel } = job.work;
      const refused = typeof kernel === 'string' ? null : moduleRefusal(kernel, this.moduleDirs);
      if (runner === undefined) {
        const why = `worker ${String(job.worker)} is not a worker of node ${this.name}`;
        resolve(failedResult(job.splitId, -1, why, 'WORKER_LOST'));
      } else if (refused !== null) {
        resolve(failedResult(job.splitId, job.worker, refused, 'KERNEL_FAILED'));
      } else runner.submit({ jobId, job: withZeros(job), resolve });
    });
    this.reply(job.replyTo, { jobId, result });
    return result;
  }

  /**
   * Queues an end for its coordinator's list; the ends of one turn go out together, one `RPUSH`
   * of them all and a `PEXPIRE` per list in one write (queued by ioredis while Redis is away).
   */
  private reply(coordinator: string, end: EndMessage): void {
    const key = keys.ends(this.ns, coordinator);
    const batch = this.outbox.get(key);
    if (batch !== undefined) {
      batch.push(JSON.stringify(end));
      return;
    }
    this.outbox.set(key, [JSON.stringify(end)]);
    if (this.outbox.size === 1) queueMicrotask(() => this.flushEnds());
  }

  /**
   * Writes the queued ends. Ends Redis refused (out of memory, say) are queued again and written
   * after `ENDS_RETRY_MS`: before, they were dropped, and their quanta never ended on the
   * coordinator (its run hung once memory was freed). A quantum ends once all the same: the
   * coordinator takes the first end of a job and drops any other.
   */
  private flushEnds(): void {
    const pipeline = this.redis.pipeline();
    const sent = [...this.outbox];
    for (const [key, ends] of sent) pipeline.rpush(key, ...ends).pexpire(key, ENDS_TTL_MS);
    this.outbox.clear();
    void pipeline.exec().then(
      (results) => {
        // Each list is one `RPUSH` and one `PEXPIRE`: the push's reply says whether it was stored.
        const refused = sent.filter((_, i) => refusalOf(results?.[2 * i]?.[0]) !== null);
        const why = pipelineRefusal(results);
        if (why === null) this.refusals.succeeded();
        else this.refusals.refused(why);
        this.retryEnds(refused);
      },
      (e: Error) => {
        this.log(`redis: quantum ends not sent: ${e.message} (sent again)`);
        this.retryEnds(sent);
      },
    );
  }

  /** Queues `ends` again ahead of any queued since, and writes them after a pause. */
  private retryEnds(ends: [string, string[]][]): void {
    if (ends.length === 0 || this.stopped) return;
    for (const [key, texts] of ends)
      this.outbox.set(key, [...texts, ...(this.outbox.get(key) ?? [])]);
    this.retry ??= setTimeout(() => {
      this.retry = null;
      if (this.outbox.size > 0 && !this.stopped) this.flushEnds();
    }, ENDS_RETRY_MS);
  }
}

/** `job` with the `-0`s of its input put back (JSON wrote them 0). */
function withZeros(job: QuantumJob): QuantumJob {
  if (job.inputZeros === undefined) return job;
  return { ...job, input: restoreZeros(job.input, job.inputZeros) };
}

/** A split across coordinators: each numbers its own splits (protocol.ts, control). */
function splitKey(coordinator: string, splitId: number): string {
  return `${coordinator}:${splitId}`;
}
