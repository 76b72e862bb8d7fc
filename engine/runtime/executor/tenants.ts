/**
 * The executor's tenants by name (records.ts `TenantGroup`): made on a tenant's first job, kept
 * while it has live jobs, and kept idle afterwards so its accumulated time still counts when it
 * comes back — up to `MAX_IDLE_TENANTS` idle ones, the longest idle forgotten first, so memory
 * stays bounded however many tenant names a service sees. A forgotten tenant that returns starts
 * from zero time. Tenant weights (`setWeights`, the `fair` policy's shares) are kept by name, apart
 * from the groups, so a tenant keeps its weight when it is forgotten and comes back.
 */
import { LRUCache } from 'lru-cache';
import { weightsText } from '../../../shared/job.ts';
import type { TenantRow } from '../../../shared/protocol.ts';
import { TenantGroup } from './records.ts';

export const MAX_IDLE_TENANTS = 10_000;
/**
 * A tenant idle no longer than this (ns) between two jobs ran them back to back: its stretch of
 * work goes on (a service submits a caller's next run when the last one answers, a few ms later).
 * Idle longer, it starts a new stretch when it comes back (fair-groups.ts).
 */
export const ACTIVE_GAP_NANOS = 100e6;

export type { TenantRow };

export class Tenants {
  private readonly live = new Map<string, TenantGroup>();
  /**
   * Idle tenants, the longest idle forgotten first past `MAX_IDLE_TENANTS`: an LRU cache, not a
   * Map whose oldest key is deleted on every release (that leaves holes at its front which each
   * `keys().next()` walks again: 9.4 µs a release past 10,000 idle tenants, a cost a service with a
   * tenant per user paid on every run).
   */
  private readonly idle = new LRUCache<string, TenantGroup>({ max: MAX_IDLE_TENANTS });
  /** Weights other than 1, by tenant name (checked by the caller: shared/job.ts). */
  private weights: ReadonlyMap<string, number> = new Map();
  private version = 0;

  /** The weights other than 1 now, by tenant name. */
  get weighted(): ReadonlyMap<string, number> {
    return this.weights;
  }

  /** A tenant's weight now (1 unless `setWeights` gave another). */
  weightOf(name: string): number {
    return this.weights.get(name) ?? 1;
  }

  /** How many times `setWeights` ran: a client that read the weights knows when to read again. */
  get weightsVersion(): number {
    return this.version;
  }

  /** The weights for a timeline marker: `gold ×3, silver ×2; others 1`, or `all tenants 1`. */
  describeWeights(): string {
    return this.weights.size === 0 ? 'all tenants 1' : `${weightsText(this.weights)}; others 1`;
  }

  /** Replaces every tenant's weight: those named get theirs, every other tenant 1. */
  setWeights(weights: ReadonlyMap<string, number>): void {
    this.weights = new Map([...weights].filter(([, w]) => w !== 1));
    this.version++;
    for (const g of this.live.values()) g.weight = this.weights.get(g.name) ?? 1;
    for (const g of this.idle.values()) g.weight = this.weights.get(g.name) ?? 1;
  }

  /**
   * The tenant's group with one more live job at `now` (its name checked with the job,
   * shared/job.ts).
   */
  acquire(name: string, now: number): TenantGroup {
    let group = this.live.get(name);
    if (group === undefined) {
      group = this.idle.get(name) ?? this.fresh(name);
      this.idle.delete(name);
      this.live.set(name, group);
    }
    if (group.liveJobs === 0 && now - group.idleSinceNanos > ACTIVE_GAP_NANOS) {
      group.activeSinceNanos = now;
      group.serviceAtActiveNanos = group.scheduledNanos;
    }
    group.liveJobs++;
    return group;
  }

  private fresh(name: string): TenantGroup {
    const group = new TenantGroup(name);
    if (this.weights.size > 0) group.weight = this.weights.get(name) ?? 1;
    return group;
  }

  /** One of the tenant's jobs ended at `now`. */
  release(group: TenantGroup, now: number): void {
    group.liveJobs--;
    if (group.liveJobs === 0) group.idleSinceNanos = now;
    if (group.liveJobs > 0 || this.live.get(group.name) !== group) return;
    this.live.delete(group.name);
    this.idle.set(group.name, group);
  }

  /** How many tenants it holds: with live jobs, and idle ones not forgotten. */
  get count(): number {
    return this.live.size + this.idle.size;
  }

  /** Tenants with live jobs first, then idle ones (most recently idle first), at most `limit`. */
  rows(limit = 100): TenantRow[] {
    const out: TenantRow[] = [];
    const add = (g: TenantGroup) =>
      out.push({
        name: g.name,
        scheduledNanos: g.scheduledNanos,
        liveJobs: g.liveJobs,
        rejectedJobs: g.rejectedJobs,
        weight: g.weight,
      });
    for (const g of this.live.values()) {
      if (out.length >= limit) return out;
      add(g);
    }
    for (const g of this.idle.values()) {
      if (out.length >= limit) break;
      add(g);
    }
    return out;
  }
}
