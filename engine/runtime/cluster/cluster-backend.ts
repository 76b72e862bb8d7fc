/**
 * The `cluster` backend: the executor's dispatches become BullMQ jobs, one quantum of one split
 * each, on the queue of the worker node that owns the worker id (fleet.ts); the node runs it on
 * the threads backend's worker threads and pushes its measured end onto this coordinator's ends
 * list, which one blocking read here drains (protocol.ts). The coordinator — this process — keeps
 * the policy and charges each quantum the time the node measured, exactly as on local threads;
 * Redis holds only what is in flight.
 *
 * Pipelining (`queueableWorkers`/`queueRoom`/`enqueue`, backend.ts; the executor's `pipeline`,
 * on for `schedlab run`/`serve` on the cluster): a busy worker id holds dispatches queued behind
 * its running one, up to `QUEUE_AHEAD_NANOS` of quanta (protocol.ts) — one 100 ms quantum, or five
 * of 1 ms; they are on the node already, so its worker starts the next the moment one ends instead
 * of waiting a round trip through here. The first is chosen late, within a lead of the running
 * quantum's expected end (`bindLeadNanos`) that adapts to how late queued dispatches arrive
 * (protocol.ts), so a newcomer waits for that quantum alone. The executor chose them, in its
 * order; a queued dispatch is running from its view until it ends, though its wait and its run
 * start when it starts. A job on a node's queue cannot be taken back at once, so `revoke` never
 * succeeds (it answers false: the dispatch runs and its end comes).
 *
 * Worker ids: each node's workers get the lowest free ids when it joins and lose them when it is
 * gone; `workerCount` is how many ids the executor may use (its `workers` setting), so ids
 * without a node show as `starting` and a node's workers beyond the count wait as spares.
 *
 * Every dispatch ends exactly once (a quantum end is emitted only by whoever takes the flight
 * out of `Flights` first, flights.ts):
 * - the node reports it (its ends list, or the job's stored result, recovery.ts);
 * - the node is lost (heartbeat expired): the quantum running on each of its workers ends `failed`,
 *   `WORKER_LOST`, naming the node, charged by rule (cluster-ends.ts `lostEnd`) — the executor
 *   retries it elsewhere if the job has retries left, else the job fails; those queued behind it
 *   never started and end `yielded` with no work, to be offered again;
 * - Redis went away and came back without the job (it restarted empty): `yielded` with no work,
 *   so the split is offered again (its quantum runs again; nothing of it was charged).
 * A user module's split goes only to a node started with `--modules` (`runs`); with none in the
 * fleet it fails `MODULE_NOT_ALLOWED`, naming the flag.
 *
 * While Redis is unreachable nothing is dispatched (no worker is idle) and `onAlarm` says so.
 * Redis refusing writes (an error reply: out of memory, read-only…) is said too, once and then
 * with a count (refusals.ts, `writesRefused`); a refused dispatch goes back to the executor.
 *
 * `kind` is `threads`: the clock is real and work runs on real threads, so every rule the host
 * has for threads (timeScale, the `threads` config layer) holds here too.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SchedLabError } from '../../../shared/errors.ts';
import {
  unstartedEnd,
  type Backend,
  type BackendEvents,
  type Dispatch,
  type QuantumEnd,
  type SplitWork,
} from '../backend.ts';
import { nanosSince, originNow } from '../threads/clock.ts';
import { FaultInjector } from '../threads/fault-injection.ts';
import { checkCount, checkCut } from '../threads/threads-options.ts';
import { WallTimers } from '../threads/wall-timers.ts';
import { failedEnd } from '../threads/quantum-ends.ts';
import { grantedNanos, lostEnd, measuredEnd } from './cluster-ends.ts';
import { Fleet, type FleetNode } from './fleet.ts';
import { Flights, type Flight } from './flights.ts';
import { restoreZeros, sendCheck, type Zeros } from './json-value.ts';
import { redisReady, unavailable, withTimeout } from './with-timeout.ts';
import { reconcile, settleLeft, type Settler } from './recovery.ts';
import { Refusals } from './refusals.ts';
import { WorkerTable } from './worker-table.ts';
import {
  BIND_LATE_NANOS,
  BIND_LEAD_MAX_NANOS,
  BIND_LEAD_MIN_NANOS,
  BIND_LEAD_NANOS,
  DEFAULT_NAMESPACE,
  ENDS_PER_READ,
  HEARTBEAT,
  keys,
  MAX_QUEUED_PER_WORKER,
  QUEUE_AHEAD_NANOS,
  type ControlMessage,
  type EndMessage,
  type HeartbeatTiming,
  type QuantumJob,
  type QuantumResult,
} from './protocol.ts';
import { connectionOptions, parseRedisUrl, type RedisTarget } from './redis-url.ts';

/** How long a split whose dispatch Redis did not store waits before the executor offers it again. */
const ADD_RETRY_MS = 100;

export interface ClusterBackendOptions {
  readonly redis: string;
  /** Worker ids the executor may use (default: 1 until `setWorkerCount`). */
  readonly workers?: number;
  readonly namespace?: string;
  readonly heartbeat?: HeartbeatTiming;
  /** Seeds `failProbability` draws, as on threads. */
  readonly seed?: number;
  /** Redis lost or back, nodes joining and gone: one line each. */
  readonly onAlarm?: (alarm: ClusterAlarm) => void;
}

export interface ClusterAlarm {
  readonly kind:
    | 'redis-down'
    | 'redis-up'
    | 'redis-refused'
    | 'redis-accepts'
    | 'node-joined'
    | 'node-lost'
    | 'node-left';
  readonly message: string;
}

export class ClusterBackend implements Backend {
  readonly kind = 'threads';
  /** Queued work a busy worker holds to stay fed through a dispatch's trip (protocol.ts). */
  readonly queueAheadNanos = QUEUE_AHEAD_NANOS;
  readonly target: RedisTarget;
  private readonly origin = originNow();
  private readonly timers = new WallTimers(() => this.now());
  private readonly redis: Redis;
  /** Blocks on this coordinator's ends list (a blocking read needs a connection of its own). */
  private readonly endsReader: Redis;
  /**
   * Every node queue's connection (fleet.ts): the dispatches of one turn, to any nodes, are
   * written to Redis together (ioredis auto-pipelining), not one write per job and connection.
   */
  private readonly dispatcher: Redis;
  private readonly fleet: Fleet;
  private readonly ns: string;
  private readonly coordinator = randomBytes(4).toString('hex');
  private readonly table = new WorkerTable();
  private readonly flights = new Flights();
  private readonly moduleState = new Map<number, { value: unknown; zeros?: Zeros }>();
  private readonly faults: FaultInjector;
  private listener: BackendEvents | null = null;
  private cap: number;
  private seq = 0;
  /** `bindLeadNanos` now: adapts to how late queued dispatches arrive (protocol.ts). */
  private lead = BIND_LEAD_NANOS;
  private redisUp = false;
  /** When Redis became unreachable (wall ms), while it is; the outages before, summed (ms). */
  private downSince: number | null = null;
  private awayBefore = 0;
  private closed = false;
  /** Writes Redis answered with an error (refusals.ts). */
  private readonly refusals: Refusals;

  constructor(private readonly options: ClusterBackendOptions) {
    this.target = parseRedisUrl(options.redis);
    this.cap = checkCount(options.workers ?? 1);
    this.ns = options.namespace ?? DEFAULT_NAMESPACE;
    this.faults = new FaultInjector(options.seed);
    this.refusals = new Refusals(this.target.display, (line, state) =>
      this.alarm(state === 'refused' ? 'redis-refused' : 'redis-accepts', line),
    );
    const connection = connectionOptions(this.target);
    this.redis = new Redis(connection);
    this.redis.on('error', () => {});
    this.redis.on('ready', () => this.redisReady());
    this.redis.on('close', () => this.redisLost());
    this.endsReader = new Redis(connection);
    this.endsReader.on('error', () => {});
    this.dispatcher = new Redis({ ...connection, enableAutoPipelining: true });
    this.dispatcher.on('error', () => {});
    const timing = options.heartbeat ?? HEARTBEAT;
    this.fleet = new Fleet(this.redis, this.dispatcher, this.ns, timing, {
      joined: (node) => this.joined(node),
      gone: (node, why, left) => this.gone(node, why, left),
      leaving: () => {},
      stalled: (ms) => this.redisLost(`has not answered for ${ms} ms`),
      answered: () => this.redisReady(),
      refused: (why) => this.refusals.refused(why),
      accepted: () => this.refusals.succeeded(),
    });
  }

  /**
   * Connects, reads the registry once and starts watching it. A wait for Redis that goes on is
   * said to `progress` every few seconds (with-timeout.ts `redisReady`).
   */
  async connect(timeoutMs = 5000, progress?: (line: string) => void): Promise<void> {
    await redisReady(this.redis, this.target.display, timeoutMs, progress);
    void this.readEnds();
    this.fleet.start();
    await this.fleet.poll();
    // Every node registered now offers its workers before this resolves (a run sizes itself on them).
    await withTimeout(this.fleet.settled(), timeoutMs, () => new Error('join')).catch(() => {});
  }

  /** Resolves with the workers on offer once at least `min` are (nodes up), or throws at timeout. */
  async waitForWorkers(min: number, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.workersOffered() < min) {
      if (Date.now() > deadline) {
        throw unavailable(
          `${this.workersOffered()} worker(s) on ${this.target.display} after ${timeoutMs} ms, ${min} needed: start nodes with \`schedlab worker --redis ${this.target.display}\``,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.workersOffered();
  }

  /** Workers of nodes that are up (spares beyond `workerCount` included). */
  workersOffered(): number {
    let n = 0;
    for (const node of this.fleet.nodes.values())
      if (node.state === 'up') n += node.workerIds.length;
    return n;
  }

  /**
   * While Redis refuses writes (its last answer to one was an error reply): what it said and how
   * many were refused since, else null.
   */
  writesRefused(): string | null {
    return this.refusals.text();
  }

  /** The first queued dispatch is chosen this close to the running one's expected end. */
  get bindLeadNanos(): number {
    return this.lead;
  }

  /**
   * Whether worker id `id` can run `work` (`Backend.runs`): a user module only on a node started
   * with `--modules` — or on any, when no node of the fleet was, so that it is sent and fails
   * saying so (`send`) instead of waiting for good.
   */
  runs(id: number, work: SplitWork): boolean {
    if (typeof work.kernel === 'string') return true;
    return this.table.get(id)?.record.modules !== false || !this.anyRunsModules();
  }

  private anyRunsModules(): boolean {
    for (const node of this.fleet.nodes.values()) {
      if (node.state !== 'gone' && node.record.modules !== false) return true;
    }
    return false;
  }

  /**
   * How long Redis has been unreachable over this backend's life (ms, the outage under way
   * included), and since when (wall ms) when it is now: a run stopped at its time limit says so.
   */
  redisAway(): { ms: number; since: number | null } {
    const now = this.downSince === null ? 0 : Date.now() - this.downSince;
    return { ms: this.awayBefore + now, since: this.downSince };
  }

  /** The node (its `--name`) holding worker id `id` now. */
  workerNode(id: number): string | undefined {
    return this.table.get(id)?.record.name;
  }

  /**
   * While Redis is down, a quantum in flight counts as running at most what it was granted
   * (cluster-ends.ts): its end cannot come, and a report cut meanwhile read its worker busy for the
   * whole outage. The end, when it comes, brings the time it really ran. With Redis up there is
   * no bound: a module overrunning its quantum on a live node shows as it runs.
   */
  runningBound(id: number): number {
    if (this.redisUp) return Infinity;
    const flight = this.flights.worker(id);
    return flight === null ? Infinity : grantedNanos(flight.dispatch);
  }

  now(): number {
    return nanosSince(this.origin);
  }

  get workerCount(): number {
    return this.cap;
  }

  setWorkerCount(count: number): void {
    this.assertOpen();
    const grew = count > this.cap;
    this.cap = checkCount(count);
    this.table.promote(this.cap, this.busy);
    if (grew) queueMicrotask(() => this.listener?.capacity?.());
  }

  idleWorkers(): number[] {
    const idle: number[] = [];
    if (!this.redisUp || this.closed) return idle;
    const n = Math.min(this.cap, this.table.length);
    for (let id = 0; id < n; id++) {
      if (this.table.get(id)?.state === 'up' && !this.busy(id)) idle.push(id);
    }
    return idle;
  }

  /**
   * Busy worker ids, lowest first, whose node worker can hold one more dispatch queued behind the
   * running one: those queued there add up to less than `QUEUE_AHEAD_NANOS` of quanta.
   */
  queueableWorkers(): number[] {
    const out: number[] = [];
    if (!this.redisUp || this.closed) return out;
    const n = Math.min(this.cap, this.table.length);
    for (let id = 0; id < n; id++) if (this.queueable(id)) out.push(id);
    return out;
  }

  start(dispatch: Dispatch): void {
    this.assertOpen();
    const id = dispatch.workerId;
    const node = this.table.get(id);
    if (!this.idleWorkers().includes(id) || node === null) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `workerId ${id} is not an idle worker`,
        'workerId',
      );
    }
    this.send(node, dispatch, false);
  }

  /** Queues `dispatch` on the node worker of a busy worker from `queueableWorkers()`. */
  enqueue(dispatch: Dispatch): void {
    this.assertOpen();
    const id = dispatch.workerId;
    const node = this.table.get(id);
    if (node === null || !this.redisUp || id >= this.cap || !this.queueable(id)) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `workerId ${id} is not a busy worker with room for a queued dispatch`,
        'workerId',
      );
    }
    this.send(node, dispatch, true);
  }

  /**
   * How many more dispatches busy worker id `id` can hold queued (`Backend.queueRoom`): while
   * those queued add up to less than `QUEUE_AHEAD_NANOS` of quanta, at most
   * `MAX_QUEUED_PER_WORKER`; 0 when it is idle or its node is not up.
   */
  queueRoom(id: number): number {
    if (!this.redisUp || this.closed || id >= this.cap || !this.queueable(id)) return 0;
    return MAX_QUEUED_PER_WORKER - this.queuedOn(id);
  }

  /** Dispatches queued on worker id `id`'s node worker behind the one running there. */
  queuedOn(id: number): number {
    return Math.max(0, this.flights.onWorker(id).length - 1);
  }

  /** A job on a node's queue cannot be taken back at once: the dispatch runs (see the header). */
  revoke(_splitId: number): boolean {
    return false;
  }

  private queueable(id: number): boolean {
    const node = this.table.get(id);
    const on = this.flights.onWorker(id);
    if (node === null || node.state !== 'up' || on.length === 0 || on[0]!.node !== node) {
      return false;
    }
    if (on.length > MAX_QUEUED_PER_WORKER) return false;
    let ahead = 0;
    for (let i = 1; i < on.length; i++) ahead += on[i]!.dispatch.quantumNanos;
    return ahead < QUEUE_AHEAD_NANOS;
  }

  /**
   * Ends `flight`, never sent, as failed (`why`, `code`): on the next microtask, as a quantum end
   * would come — the caller is still in `start` or `enqueue`.
   */
  private failUnsent(
    flight: Flight,
    why: string,
    code: NonNullable<QuantumEnd['errorCode']>,
  ): void {
    const { dispatch, sentAt } = flight;
    const end = failedEnd(dispatch.splitId, dispatch.workerId, sentAt, sentAt, why, code);
    queueMicrotask(() => this.endFlight(flight.jobId, end));
  }

  private send(node: FleetNode, dispatch: Dispatch, queued: boolean): void {
    if (this.flights.split(dispatch.splitId) !== undefined) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `splitId ${dispatch.splitId} is already running`,
        'splitId',
      );
    }
    const jobId = `${this.coordinator}-${++this.seq}`;
    const sentAt = this.now();
    const flight: Flight = {
      jobId,
      dispatch,
      node,
      sentAt,
      headAt: sentAt,
      added: false,
      queued,
      afterFullQuantum: false,
      cancelAsked: false,
    };
    this.flights.add(flight);
    if (typeof dispatch.work.kernel !== 'string' && node.record.modules === false) {
      // Sent here only when no node runs modules (`runs`).
      const refused = `module ${dispatch.work.kernel.module}: no node of the cluster runs user modules (start one with schedlab worker --modules DIR)`;
      this.failUnsent(flight, refused, 'MODULE_NOT_ALLOWED');
      return;
    }
    const state = this.moduleState.get(dispatch.splitId);
    const input = state === undefined ? dispatch.work.input : state.value;
    // A yielded state came back through Redis as JSON (its node checked it, and sent where its
    // -0s are): only an input from the caller can be something else, and it is checked before its
    // first quantum leaves.
    const { error: why, zeros } =
      state === undefined
        ? sendCheck(input, 'input', 'input')
        : { error: null, zeros: state.zeros };
    if (why !== null) {
      // BullMQ could not store it (a bigint or an over-long text throws) or would store something
      // else; offered again, the split would loop here for good. It fails, as a threads run whose
      // input cannot be cloned.
      this.failUnsent(flight, why, 'KERNEL_FAILED');
      return;
    }
    const data: QuantumJob = {
      replyTo: this.coordinator,
      worker: node.workerIds.indexOf(dispatch.workerId),
      splitId: dispatch.splitId,
      quantumNanos: dispatch.quantumNanos,
      work: withoutInput(dispatch.work),
      doneNanos: dispatch.doneNanos,
      ...(input === undefined ? {} : { input }),
      ...(zeros === undefined ? {} : { inputZeros: zeros }),
    };
    node.queue
      .add('quantum', data, {
        jobId,
        attempts: 1,
        removeOnComplete: { count: 1000 },
        removeOnFail: { count: 1000 },
      })
      .then(() => {
        flight.added = true;
        this.refusals.succeeded();
      })
      // Never stored: nothing ran; the split goes back to the executor — after a pause, so a Redis
      // that refuses every add (out of memory, say) is not asked again in the same turn for good.
      // A refusal is said (once, then counted), not retried in silence.
      .catch((e: unknown) => {
        this.refusals.failed(e);
        setTimeout(() => {
          if (!this.closed)
            this.endFlight(jobId, unstartedEnd(dispatch.splitId, dispatch.workerId, this.now()));
        }, ADD_RETRY_MS);
      });
  }

  cancel(splitId: number): void {
    const flight = this.flights.split(splitId);
    if (flight === undefined) {
      this.moduleState.delete(splitId);
      return;
    }
    flight.cancelAsked = true;
    const quantum = flight.jobId;
    this.control(flight.node, { type: 'cancel', coordinator: this.coordinator, splitId, quantum });
  }

  /** Cuts the quantum running on `workerId` and those queued behind it (the node keeps the cut). */
  shortenQuantum(workerId: number, quantumNanos: number): void {
    const nanos = checkCut(quantumNanos);
    for (const flight of this.flights.onWorker(workerId)) {
      const splitId = flight.dispatch.splitId;
      this.control(flight.node, { type: 'cut', coordinator: this.coordinator, splitId, nanos });
    }
  }

  setTimer(atNanos: number, fn: () => void): () => void {
    return this.timers.set(atNanos, fn);
  }

  setListener(events: BackendEvents): void {
    this.listener = events;
  }

  /** Dispatches in flight (sent, not ended). */
  get inFlight(): number {
    return this.flights.size;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.timers.clear();
    this.endsReader.disconnect();
    await this.fleet.close();
    // `quit` sends what is queued first (the cancels of a closing executor); a Redis that is
    // away gets half a second.
    await withTimeout(
      Promise.all([this.redis.quit(), this.dispatcher.quit()]),
      500,
      () => new Error('quit'),
    ).catch(() => {});
    this.redis.disconnect();
    this.dispatcher.disconnect();
  }

  // ─── ends ──────────────────────────────────────────────────────────────────────────────

  /** Drains this coordinator's ends list until closed (Redis away: the read waits it out). */
  private async readEnds(): Promise<void> {
    const key = keys.ends(this.ns, this.coordinator);
    while (!this.closed) {
      let got: [string, string[]] | null;
      try {
        got = await this.endsReader.blmpop(1, 1, key, 'LEFT', 'COUNT', ENDS_PER_READ);
      } catch {
        if (!this.closed) await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      for (const text of got?.[1] ?? []) {
        const end = parseEnd(text);
        if (end !== null) this.completed(end.jobId, end.result);
      }
    }
  }

  private completed(jobId: string, result: QuantumResult): void {
    const flight = this.flights.job(jobId);
    if (flight === undefined) return; // another coordinator's, or ended already
    const split = flight.dispatch.splitId;
    if (flight.queued && flight.afterFullQuantum) this.adaptLead(result.idleBeforeNanos ?? 0);
    // The flight behind this one on its worker starts as this ends (flights.ts).
    const on = this.flights.onWorker(flight.dispatch.workerId);
    const next = on[on.indexOf(flight) + 1];
    if (next !== undefined) next.afterFullQuantum = result.ranNanos >= flight.dispatch.quantumNanos;
    let report = measuredEnd(flight.dispatch, flight.sentAt, this.now(), withZeros(result));
    let outcome = report.outcome;
    if (!flight.cancelAsked) {
      const injected = this.faults.apply({ ...report, outcome }, flight.dispatch.work);
      if (injected.outcome !== outcome) {
        outcome = injected.outcome;
        report = { ...report, outcome, workNanos: 0, error: injected.error ?? 'injected failure' };
      }
    }
    if (outcome === 'yielded' && result.state !== undefined && !flight.cancelAsked) {
      // Sent on as the next input, as it came (its -0s beside it).
      const { value } = result.state;
      this.moduleState.set(
        split,
        result.zeros === undefined ? { value } : { value, zeros: result.zeros },
      );
    } else if (outcome !== 'blocked') this.moduleState.delete(split);
    this.endFlight(jobId, report);
  }

  /** A queued dispatch started `idle` ns after its worker ran out of work (protocol.ts). */
  private adaptLead(idle: number): void {
    this.lead =
      idle > BIND_LATE_NANOS
        ? Math.min(BIND_LEAD_MAX_NANOS, this.lead + idle)
        : Math.max(BIND_LEAD_MIN_NANOS, this.lead * 0.98);
  }

  private bullFailed(jobId: string, reason: string): void {
    const flight = this.flights.job(jobId);
    if (flight === undefined) return;
    const why = `job failed in BullMQ: ${reason}`;
    this.endFlight(jobId, lostEnd(flight.dispatch, flight.headAt, this.now(), why));
  }

  /** The one place a flight ends: it leaves every map, then its end goes to the executor. */
  private endFlight(jobId: string, end: QuantumEnd): void {
    if (this.flights.take(jobId, this.now()) === undefined) return;
    if (end.outcome === 'failed') this.moduleState.delete(end.splitId);
    this.listener?.quantumEnd(end);
  }

  // ─── nodes and Redis ───────────────────────────────────────────────────────────────────

  private joined(node: FleetNode): void {
    this.table.assign(node);
    this.alarm(
      'node-joined',
      `node ${node.record.name} joined with ${node.record.workers} worker(s): workers ${node.workerIds.join(', ')}`,
    );
    this.listener?.capacity?.();
  }

  private async gone(node: FleetNode, why: string, left: boolean): Promise<void> {
    this.table.free(node);
    const reason = `worker lost: node ${node.record.name} (${node.record.instance}) ${why}`;
    const mine = this.flights.all().filter((f) => f.node === node);
    // Running on a worker when the loss was seen; the others were queued behind one.
    const running = new Set(mine.filter((f) => this.flights.worker(f.dispatch.workerId) === f));
    for (const flight of mine) {
      if (left && (await settleLeft(flight, this.settler))) continue;
      if (!running.has(flight)) {
        this.settler.unstarted(flight); // never started there: offered again
        continue;
      }
      this.endFlight(flight.jobId, lostEnd(flight.dispatch, flight.headAt, this.now(), reason));
    }
    this.alarm(left ? 'node-left' : 'node-lost', `node ${node.record.name} ${why}`);
    if (this.table.promote(this.cap, this.busy)) this.listener?.capacity?.();
  }

  /** The connection closed, or (`how`) Redis stopped answering on it. */
  private redisLost(how = 'is unreachable'): void {
    if (!this.redisUp || this.closed) return;
    this.redisUp = false;
    this.downSince = Date.now();
    this.alarm(
      'redis-down',
      `Redis at ${this.target.display} ${how}: dispatch stopped with ${this.flights.size} quantum(s) in flight`,
    );
  }

  private redisReady(): void {
    if (this.redisUp || this.closed) return;
    const wasDown = this.seq > 0 || this.fleet.nodes.size > 0;
    this.redisUp = true;
    if (this.downSince !== null) this.awayBefore += Date.now() - this.downSince;
    this.downSince = null;
    if (!wasDown) return;
    this.fleet.reconnected();
    this.alarm('redis-up', `Redis at ${this.target.display} is back: dispatch resumed`);
    void reconcile(this.flights.all(), this.settler).finally(() => this.listener?.capacity?.());
  }

  private control(node: FleetNode, message: ControlMessage): void {
    void this.redis
      .publish(keys.control(this.ns, node.record.instance), JSON.stringify(message))
      .catch(() => {});
  }

  private alarm(kind: ClusterAlarm['kind'], message: string): void {
    this.options.onAlarm?.({ kind, message });
  }

  private readonly busy = (id: number): boolean => this.flights.worker(id) !== null;

  private readonly settler: Settler = {
    completed: (jobId, result) => this.completed(jobId, result),
    failed: (jobId, reason) => this.bullFailed(jobId, reason),
    unstarted: (flight) =>
      this.endFlight(
        flight.jobId,
        unstartedEnd(flight.dispatch.splitId, flight.dispatch.workerId, this.now()),
      ),
  };

  private assertOpen(): void {
    if (this.closed) throw new SchedLabError('ENGINE_CLOSED', 'the cluster backend is closed');
  }
}

/** An ends-list entry, or null when it is not one (never trusted to be well formed). */
function parseEnd(text: string): EndMessage | null {
  try {
    const end = JSON.parse(text) as Partial<EndMessage>;
    if (typeof end.jobId !== 'string' || typeof end.result !== 'object' || end.result === null) {
      return null;
    }
    return end as EndMessage;
  } catch {
    return null;
  }
}

/** `result` with the `-0`s of its module's result put back (JSON wrote them 0). */
function withZeros(result: QuantumResult): QuantumResult {
  if (result.zeros === undefined || result.result === undefined) return result;
  return { ...result, result: restoreZeros(result.result, result.zeros) };
}

/**
 * The work as a node needs it: its input travels once, beside it (`QuantumJob.input`, the first
 * input or the state yielded last). Sent inside the work too, an input the size check passed was
 * stored twice and could pass V8's longest string; BullMQ's add then threw for good.
 */
function withoutInput(work: SplitWork): SplitWork {
  if (!('input' in work)) return work;
  const { input: _sentBeside, ...rest } = work;
  return rest;
}
