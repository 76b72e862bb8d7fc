/**
 * What the Gantt's lanes show besides finished spans: the quantum each worker is running now
 * (drawn from its start up to the engine's now, marked in progress), and the lanes of workers
 * that left the pool but ran inside the visible window (kept, marked retired from when they left).
 */
import type { WorkerRow } from '../../../shared/protocol.ts';
import type { Marker } from './telemetry.ts';

const NS_PER_MS = 1e6;

export interface InFlight {
  lane: number;
  startMs: number;
  endMs: number;
  job: number | null;
}

/**
 * The running quanta of a frame's workers, from `sinceNanos` up to `nowMs` (at least the start:
 * a quantum that began after the extrapolated now is a zero-width mark, not a negative bar).
 */
export function inFlightQuanta(workers: readonly WorkerRow[], nowMs: number): InFlight[] {
  const out: InFlight[] = [];
  for (const w of workers) {
    if (w.sinceNanos === null || (w.state !== 'running' && w.state !== 'retiring')) continue;
    const startMs = w.sinceNanos / NS_PER_MS;
    out.push({ lane: w.id, startMs, endMs: Math.max(startMs, nowMs), job: w.jobId });
  }
  return out;
}

export interface LaneLayout {
  lanes: number;
  /** Per lane: when its worker left the pool (ms), or null while it is in the pool. */
  retiredFromMs: (number | null)[];
}

/** `workers: 4 → 1`: the knob-change event the executor records for a pool resize. */
const RESIZE = /^workers: (\d+) → (\d+)$/;

/**
 * Lanes to draw: every worker in the pool, plus every former worker whose last span ends inside
 * the window (`laneEndMs[w]` ≥ `t0`). A former worker is retired from the later of the resize
 * that took it out and the end of its last quantum (a retiring worker finishes the one it runs).
 */
export function laneLayout(
  workerCount: number,
  laneEndMs: readonly number[],
  t0: number,
  markers: readonly Marker[],
): LaneLayout {
  let lanes = Math.max(1, workerCount);
  laneEndMs.forEach((end, w) => {
    if (end >= t0 && w + 1 > lanes) lanes = w + 1;
  });
  const retiredFromMs: (number | null)[] = [];
  for (let lane = 0; lane < lanes; lane++) {
    if (lane < workerCount) {
      retiredFromMs.push(null);
      continue;
    }
    let left = -Infinity;
    for (const m of markers) {
      const r = RESIZE.exec(m.detail);
      if (r !== null && Number(r[2]) <= lane && Number(r[1]) > lane) left = Math.max(left, m.tMs);
    }
    const end = laneEndMs[lane] ?? -Infinity;
    const from = Math.max(left, end);
    retiredFromMs.push(Number.isFinite(from) ? from : t0);
  }
  return { lanes, retiredFromMs };
}
