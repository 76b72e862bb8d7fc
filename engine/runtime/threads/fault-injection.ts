/**
 * Fault injection on real threads (`SplitWork.failProbability`), drawn the way the simulator
 * draws it so a retry workload behaves alike on both backends: each dispatch that ran CPU work
 * (not `sleep`, not cancelled) ends `failed` with that chance, and the work it did is lost.
 *
 * The draw is made on the main thread when the worker's report arrives, from the backend's own
 * RNG: seeded, the sequence of draws repeats (which quantum gets which draw still depends on the
 * order real quanta end in).
 */
import { INJECTED_FAILURE, type QuantumOutcome, type SplitWork } from '../backend.ts';
import { mulberry32 } from '../../../shared/lib/rng.ts';
import type { QuantumReport } from './protocol.ts';

/** The reason an injected failure gives: the simulator's, word for word. */

const FAILABLE: ReadonlySet<QuantumOutcome> = new Set(['yielded', 'blocked', 'finished']);

export class FaultInjector {
  private readonly draw: () => number;

  constructor(seed: number | undefined) {
    this.draw = seed === undefined ? Math.random : mulberry32(seed);
  }

  /** `report`, or the failure that replaces it when this dispatch draws one. */
  apply(report: QuantumReport, work: SplitWork): QuantumReport {
    const chance = work.failProbability;
    if (chance === undefined || chance <= 0 || work.kernel === 'sleep') return report;
    if (!FAILABLE.has(report.outcome) || this.draw() >= chance) return report;
    const { splitId, startNanos, endNanos, cpuNanos } = report;
    // The work is lost, not the time: the quantum's CPU time stays measured.
    return {
      splitId,
      startNanos,
      endNanos,
      workNanos: 0,
      outcome: 'failed',
      error: INJECTED_FAILURE,
      ...(cpuNanos === undefined ? {} : { cpuNanos }),
    };
  }
}
