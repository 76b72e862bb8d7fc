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
    if (this.idle.size > MAX_IDLE_TENANTS) {
      const oldest = this.idle.keys().next().value as string;
      this.idle.delete(oldest);
    }
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
