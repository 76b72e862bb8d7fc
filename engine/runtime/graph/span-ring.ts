/**
 * A graph run's quanta as reports carry them (docs/design.md §3.4): the executor records each
 * quantum on its one span ring (`shared/lib/span-ring.ts`, bounded, dropped spans counted), and
 * a headless run names the spans of its splits by node (`central-executor.ts`).
 */
import type { QuantumOutcome } from '../../../shared/lib/outcomes.ts';

export interface GraphSpan {
  readonly node: string;
  readonly nodeIndex: number;
  readonly workerId: number;
  readonly startNanos: number;
  readonly endNanos: number;
  readonly outcome: QuantumOutcome;
}
