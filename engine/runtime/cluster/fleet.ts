/**
 * The coordinator's view of the worker nodes: it polls the registry and the heartbeats every
 * `pollMs` (protocol.ts) and keeps, per node instance, its BullMQ queue (quantum ends come back
 * on the coordinator's own list, cluster-backend.ts).
 *
 * Node lifecycle as the coordinator sees it: `joining` (its queue connecting) → `up` →
 * `leaving` (it said so; no new dispatches) → `gone`, or from any state → `gone` when its
 * heartbeat key has expired or its registry entry is missing (`lost`, unless it was `leaving`:
 * then it `left`). Detection bound: a node killed at t beat at most `everyMs` before, its key
 * lives `ttlMs`, and the next poll sees it gone: lost by t + `ttlMs` + `pollMs` (3.5 s by
 * default). Right after Redis comes back (it may have restarted empty) no node is declared lost
 * for `ttlMs`, so live nodes have time to beat again.
 *
 * A beat can be missing because Redis refused it (out of memory under `noeviction`, a read-only
 * replica): the node is alive and its writes are not taken. So before a node is declared lost the
 * coordinator writes a short-lived key of its own (`keys.probe`); refused, no node is declared
 * lost (`refused` says why) until writes are taken again, and then not for `ttlMs` (the nodes'
 * beats are taken again within one beat). Before, such a node was said to have stopped
 * heartbeating. While writes are refused every look writes it, so the end is seen (`accepted`).
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { keys, type HeartbeatTiming, type NodeRecord } from './protocol.ts';
import { refusalOf } from './refusals.ts';

export type NodeState = 'joining' | 'up' | 'leaving' | 'gone';

export interface FleetNode {
  readonly record: NodeRecord;
  state: NodeState;
  /** Coordinator worker ids given to this node's workers (index = worker). */
  readonly workerIds: number[];
  readonly queue: Queue;
}

export interface FleetHooks {
  joined(node: FleetNode): void;
  /**
   * `why`: lost (heartbeat expired, registry entry gone) or left (`left`: it said `leaving`
   * first). Resolves once every flight on the node has ended (its queue is then emptied).
   */
  gone(node: FleetNode, why: string, left: boolean): Promise<void>;
  leaving(node: FleetNode): void;
  /**
   * A look at the registry has waited `ms` (`ttlMs`) for Redis without an answer, and the
   * connection has not closed: a Redis stalled (stopped, or its host swapping). `answered` follows
   * when that look gets its answer.
   */
  stalled(ms: number): void;
  answered(): void;
  /** Redis refused the test write, replying `why` (fleet header); `accepted`: it took one. */
  refused(why: string): void;
  accepted(): void;
}

export class Fleet {
  readonly nodes = new Map<string, FleetNode>();
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  /** When the look at the registry now waiting began (ms), and whether it was reported stalled. */
  private pollStart = 0;
  private stallReported = false;
  /** No node is declared lost before this wall time (ms): Redis just came back. */
  private graceUntil = 0;
  /** The last test write was refused (fleet header): each look writes again. */
  private refusing = false;
  /** Nodes' queues still connecting (each resolves once its node is `up` or gone). */
  private readonly joins = new Set<Promise<void>>();

  constructor(
    private readonly redis: Redis,
    /** Every node queue's client: one connection whose adds of a turn go out in one write. */
    private readonly connection: Redis,
    private readonly ns: string,
    private readonly timing: HeartbeatTiming,
    private readonly hooks: FleetHooks,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.poll(), this.timing.pollMs);
  }

  /** Redis came back: heartbeats lost with it must not count against the nodes. */
  reconnected(): void {
    this.graceUntil = Date.now() + this.timing.ttlMs;
  }

  /** One look at the registry and the heartbeats; resolves once its changes are applied. */
  async poll(): Promise<void> {
    if (this.polling) {
      const waited = Date.now() - this.pollStart;
      if (!this.stallReported && waited >= this.timing.ttlMs) {
        this.stallReported = true;
        this.hooks.stalled(waited);
      }
      return;
    }
    this.polling = true;
    this.pollStart = Date.now();
    try {
      const entries = await this.redis.hgetall(keys.nodes(this.ns));
      if (this.stallReported) {
        this.stallReported = false;
        this.hooks.answered();
      }
      const instances = Object.keys(entries);
      const beats = instances.length
        ? await this.redis.mget(instances.map((i) => keys.heartbeat(this.ns, i)))
        : [];
      const alive = new Map<string, NodeRecord>();
      const dead: string[] = [];
      instances.forEach((instance, i) => {
        if (beats[i] === null) {
          // Its beat ran out before this coordinator knew it (killed while none ran): below.
          if (!this.nodes.has(instance)) dead.push(instance);
          return;
        }
        const record = parseRecord(entries[instance]!);
        // An entry that is not a node record (another program's key) is not a node.
        if (record !== null) alive.set(instance, record);
      });
      for (const [instance, record] of alive) {
        const known = this.nodes.get(instance);
        if (known === undefined) this.join(record);
        else if (record.status === 'leaving' && known.state !== 'leaving') {
          known.state = 'leaving';
          this.hooks.leaving(known);
        }
      }
      if (Date.now() < this.graceUntil) return;
      const missing = [...this.nodes.values()].some((n) => !alive.has(n.record.instance));
      if ((missing || this.refusing) && !(await this.writable())) return;
      // Writes are taken again just now: the nodes' beats have `ttlMs` to be taken too.
      if (Date.now() < this.graceUntil) return;
      // A node alive again rewrites its entry with its next beat (and its queue is made anew).
      for (const instance of dead) {
        if (parseRecord(entries[instance]!) === null) continue; // not a node's entry
        await this.redis.hdel(keys.nodes(this.ns), instance);
        await removeQueue(this.connection, this.ns, instance);
      }
      for (const node of [...this.nodes.values()]) {
        if (alive.has(node.record.instance)) continue;
        const stale = instances.includes(node.record.instance);
        // It said `leaving`: it left, and took its own entry out — or its entry stayed with its
        // beat gone (killed while leaving, or too slow to beat), which the reason says.
        const leaving = node.state === 'leaving';
        const why = leaving
          ? stale
            ? `left without deregistering (no beat for ${this.timing.ttlMs} ms)`
            : 'left'
          : stale
            ? `stopped heartbeating (no beat for ${this.timing.ttlMs} ms)`
            : 'vanished from the registry';
        await this.drop(node, why, leaving);
        if (stale) await this.redis.hdel(keys.nodes(this.ns), node.record.instance);
      }
    } catch (e) {
      // Redis is down: the backend raises the alarm; the next poll after it returns catches up.
      // Redis refusing a write it does here (out of memory, say) is said, not swallowed.
      const why = refusalOf(e);
      if (why !== null) this.hooks.refused(why);
    } finally {
      this.polling = false;
    }
  }

  /** Whether Redis takes a write now (fleet header); a refusal goes to `refused`. */
  private async writable(): Promise<boolean> {
    try {
      await this.redis.set(keys.probe(this.ns), '1', 'PX', this.timing.ttlMs);
    } catch (e) {
      const why = refusalOf(e);
      if (why === null) throw e;
      this.refusing = true;
      this.hooks.refused(why);
      return false;
    }
    if (this.refusing) {
      this.refusing = false;
      // The nodes' beats were refused too: they are taken again within a beat.
      this.reconnected();
    }
    this.hooks.accepted();
    return true;
  }

  private join(record: NodeRecord): void {
    const name = keys.queue(record.instance);
    const queue = new Queue(name, { connection: this.connection, prefix: this.ns });
    const node: FleetNode = { record, state: 'joining', workerIds: [], queue };
    queue.on('error', () => {});
    this.nodes.set(record.instance, node);
    const joining: Promise<void> = queue
      .waitUntilReady()
      .then(() => {
        if (node.state !== 'joining') return;
        node.state = record.status === 'leaving' ? 'leaving' : 'up';
        this.hooks.joined(node);
      })
      .catch(() => {})
      .finally(() => this.joins.delete(joining));
    this.joins.add(joining);
  }

  /** Resolves once every node seen so far has finished joining (its workers are then offered). */
  async settled(): Promise<void> {
    while (this.joins.size > 0) await Promise.all([...this.joins]);
  }

  private async drop(node: FleetNode, why: string, left: boolean): Promise<void> {
    const was = node.state;
    node.state = 'gone';
    this.nodes.delete(node.record.instance);
    if (was !== 'joining') await this.hooks.gone(node, why, left);
    // Nothing will ever take what is left on a gone node's queue.
    await obliterate(node.queue);
  }

  async close(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    const nodes = [...this.nodes.values()];
    this.nodes.clear();
    await Promise.all(
      nodes.map(async (n) => {
        n.state = 'gone';
        await n.queue.close().catch(() => {});
      }),
    );
  }
}

function parseRecord(text: string): NodeRecord | null {
  try {
    const r = JSON.parse(text) as Partial<NodeRecord>;
    const ok =
      typeof r.instance === 'string' &&
      typeof r.name === 'string' &&
      Number.isInteger(r.workers) &&
      (r.workers ?? 0) >= 1 &&
      (r.status === 'up' || r.status === 'leaving');
    return ok ? (r as NodeRecord) : null;
  } catch {
    return null;
  }
}

/**
 * Removes node `instance`'s queue and all BullMQ keeps for it (its ended jobs, its event stream):
 * a queue per node instance, each run of a node a new one, stayed in Redis for good once its node
 * left (the node on its way out, a coordinator for a node that died, both call this).
 */
export async function removeQueue(connection: Redis, ns: string, instance: string): Promise<void> {
  const queue = new Queue(keys.queue(instance), { connection, prefix: ns });
  queue.on('error', () => {});
  await obliterate(queue);
}

/** Empties `queue` and removes its keys, then lets it go (Redis away: both give up quietly). */
async function obliterate(queue: Queue): Promise<void> {
  await queue.obliterate({ force: true }).catch(() => {});
  await queue.close().catch(() => {});
}
