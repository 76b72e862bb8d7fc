/**
 * Draws from a workload's time distributions (shared/workload.ts). Values come back as integer
 * nanoseconds, the engine's unit; the document speaks milliseconds.
 */
import type { Distribution } from '../../../shared/workload.ts';
import { type Rng, uniform } from '../../../shared/lib/rng.ts';
import {
  intermediateScheduledNanos,
  intermediateWallNanos,
  leafPerCallNanos,
  leafTotalNanos,
} from './trino-generators.ts';

const MS = 1_000_000;

export function sampleNanos(rng: Rng, d: Distribution): number {
  switch (d.kind) {
    case 'fixed':
      return Math.round(d.ms * MS);
    case 'uniform':
      return Math.round(uniform(rng, d.minMs, d.maxMs) * MS);
    case 'exponential':
      // Inverse CDF; 1 − u is in (0, 1], so the log is finite.
      return Math.round(-Math.log(1 - rng.next()) * d.meanMs * MS);
    case 'trino':
      switch (d.name) {
        case 'leaf-total':
          return leafTotalNanos(rng, d.from, d.to);
        case 'leaf-per-call':
          return leafPerCallNanos(rng, d.from, d.to);
        case 'intermediate-scheduled':
          return intermediateScheduledNanos(rng);
        case 'intermediate-wall':
          return intermediateWallNanos(rng);
      }
  }
}

/** The distribution's mean in ns where it is known in closed form (for bounds and summaries). */
export function meanNanos(d: Distribution): number | null {
  switch (d.kind) {
    case 'fixed':
      return d.ms * MS;
    case 'uniform':
      return ((d.minMs + d.maxMs) / 2) * MS;
    case 'exponential':
      return d.meanMs * MS;
    case 'trino':
      return null;
  }
}
