/**
 * The executor's tenants by name (records.ts `TenantGroup`): made on a tenant's first job, kept
 * while it has live jobs, and kept idle afterwards so its accumulated time still counts when it
 * comes back — up to `MAX_IDLE_TENANTS` idle ones, the longest idle forgotten first, so memory
 * stays bounded however many tenant names a service sees. A forgotten tenant that returns starts
 * from zero time.
 */
import { TenantGroup } from './records.ts';

export const MAX_IDLE_TENANTS = 10_000;

export interface TenantRow {
  readonly name: string;
  /** Time of all its quanta since it was first seen (or last forgotten), ns. */
  readonly scheduledNanos: number;
  readonly liveJobs: number;
}

export class Tenants {
  private readonly live = new Map<string, TenantGroup>();
  /** Idle tenants in the order they went idle (Map order), oldest first. */
  private readonly idle = new Map<string, TenantGroup>();
  /**
   * The order tenants went idle, oldest first from `head`: each group with the turn it went idle
   * on. An entry whose tenant came back since (or went idle again later) is stale and skipped.
   * Not the idle Map's own order: deleting its oldest key on every release leaves holes at its
   * front that each `keys().next()` walks again (8 µs a release with 10,000 idle tenants, against
   * 0.3 µs for a delete by key), which a service with a tenant per user pays on every run.
   */
  private order: TenantGroup[] = [];
  private turns: number[] = [];
  private head = 0;
  private turn = 0;

  /** The tenant's group with one more live job (its name checked with the job, shared/job.ts). */
  acquire(name: string): TenantGroup {
    let group = this.live.get(name);
    if (group === undefined) {
      group = this.idle.get(name) ?? new TenantGroup(name);
      this.idle.delete(name);
      this.live.set(name, group);
    }
    group.liveJobs++;
    return group;
  }

  /** One of the tenant's jobs ended. */
  release(group: TenantGroup): void {
    group.liveJobs--;
    if (group.liveJobs > 0 || this.live.get(group.name) !== group) return;
    this.live.delete(group.name);
    this.idle.set(group.name, group);
    group.idleTurn = ++this.turn;
    this.order.push(group);
    this.turns.push(group.idleTurn);
    if (this.idle.size > MAX_IDLE_TENANTS) this.forgetOldest();
    else if (this.order.length - this.head > 2 * this.idle.size + 64) this.dropStale();
  }

  private isIdleSince(group: TenantGroup, turn: number): boolean {
    return group.idleTurn === turn && this.idle.get(group.name) === group;
  }

  private forgetOldest(): void {
    while (this.head < this.order.length) {
      const group = this.order[this.head]!;
      const turn = this.turns[this.head]!;
      this.head++;
      if (this.isIdleSince(group, turn)) {
        this.idle.delete(group.name);
        break;
      }
    }
    if (this.head > 1024 && this.head * 2 > this.order.length) this.dropStale();
  }

  /** Keeps only the entries of tenants idle since then (bounded: about twice the idle count). */
  private dropStale(): void {
    const order: TenantGroup[] = [];
    const turns: number[] = [];
    for (let i = this.head; i < this.order.length; i++) {
      const group = this.order[i]!;
      if (!this.isIdleSince(group, this.turns[i]!)) continue;
      order.push(group);
      turns.push(this.turns[i]!);
    }
    this.order = order;
    this.turns = turns;
    this.head = 0;
  }

  /** Tenants with live jobs first, then idle ones (most recently idle first), at most `limit`. */
  rows(limit = 100): TenantRow[] {
    const out: TenantRow[] = [];
    const add = (g: TenantGroup) =>
      out.push({ name: g.name, scheduledNanos: g.scheduledNanos, liveJobs: g.liveJobs });
    for (const g of this.live.values()) {
      if (out.length >= limit) return out;
      add(g);
    }
    for (const g of [...this.idle.values()].reverse()) {
      if (out.length >= limit) break;
      add(g);
    }
    return out;
  }
}
