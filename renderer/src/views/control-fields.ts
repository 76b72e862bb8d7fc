/**
 * The knobs of the Controls view, grouped as an operator thinks of them, each with its range as
 * the engine's schema (shared/config.ts) states it, so an input offers exactly what the engine
 * takes.
 */
import { ZodNullable, type z } from 'zod';
import { engineConfigShape, FAIRNESS_MODES, POLICY_NAMES } from '../../../shared/config.ts';
import { GRAPH_ERROR_MODES, GRAPH_EXECUTORS, GRAPH_POLICIES } from '../../../shared/graph.ts';

export type Kind = 'number' | 'select' | 'bool' | 'thresholds';

export interface FieldDef {
  key: string;
  label: string;
  kind: Kind;
  help: string;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  options?: readonly string[];
  /** Graph-run choice (`configureGraph`); may be unset, so the document decides. */
  graph?: boolean;
  /** The values the engine takes, as the label states them (`knobRange`). */
  range?: string;
  /** A slider next to the number input. */
  slider?: boolean;
  /** The knob may be null (an empty input sends it); `nullText` says what null means. */
  nullText?: string;
}

type NumberKnob = {
  [K in keyof typeof engineConfigShape]: (typeof engineConfigShape)[K] extends
    z.ZodNumber | z.ZodNullable<z.ZodNumber>
    ? K
    : never;
}[keyof typeof engineConfigShape];

/**
 * A numeric knob's input range and step from its schema (a nullable knob's number schema); a
 * minimum the schema excludes (m > 1) starts the input one step above it, while the label says
 * what the engine takes (`> 1 – 16`: 1.05 is accepted, though no step lands on it).
 */
export function knobRange(
  key: NumberKnob,
  step: number,
): { min: number; max: number; step: number; range: string } {
  const knob = engineConfigShape[key];
  const schema = knob instanceof ZodNullable ? (knob.unwrap() as z.ZodNumber) : knob;
  const low = schema.minValue ?? 0;
  const inclusive = schema.safeParse(low).success;
  const max = schema.maxValue ?? Number.MAX_SAFE_INTEGER;
  return {
    min: inclusive ? low : low + step,
    max,
    step,
    range: `${inclusive ? '' : '> '}${low} – ${max}`,
  };
}

export const GROUPS: { title: string; note: string; fields: FieldDef[] }[] = [
  {
    title: 'Policy and workers',
    note: 'Switching policy moves every queued split to the new queue; nothing is lost.',
    fields: [
      {
        key: 'policy',
        label: 'Policy',
        kind: 'select',
        options: POLICY_NAMES,
        help: 'which ready queue decides',
      },
      {
        key: 'workers',
        label: 'Workers',
        kind: 'number',
        ...knobRange('workers', 1),
        help: 'worker threads (or simulated workers), resized live',
      },
      {
        key: 'quantumMs',
        label: 'Quantum',
        kind: 'number',
        ...knobRange('quantumMs', 1),
        unit: 'ms',
        help: 'time slice per dispatch',
      },
    ],
  },
  {
    title: 'Admission',
    note: 'A job past either bound is rejected (QUEUE_FULL) and counted; no job taken is dropped.',
    fields: [
      {
        key: 'maxQueued',
        label: 'Queue bound',
        kind: 'number',
        ...knobRange('maxQueued', 1),
        help: 'splits waiting before new jobs are rejected',
      },
      {
        key: 'maxLivePerTenant',
        label: 'Per-tenant bound',
        kind: 'number',
        ...knobRange('maxLivePerTenant', 1),
        nullText: 'no limit',
        help: 'jobs one tenant may have not ended; empty: no limit',
      },
    ],
  },
  {
    title: 'Multilevel split queue',
    note: 'Each busy level gets m times the scheduled time of the next one.',
    fields: [
      {
        key: 'levelTimeMultiplier',
        label: 'Level time multiplier m',
        kind: 'number',
        ...knobRange('levelTimeMultiplier', 0.1),
        slider: true,
        help: '> 1; larger favours level 0 (short work)',
      },
      {
        key: 'levelThresholdsMs',
        label: 'Level thresholds',
        kind: 'thresholds',
        unit: 'ms',
        help: 'scheduled time at which a group enters levels 0–4; 0 first, strictly increasing',
      },
      {
        key: 'levelContributionCapMs',
        label: 'Contribution cap',
        kind: 'number',
        ...knobRange('levelContributionCapMs', 1),
        unit: 'ms',
        help: 'most time one quantum charges to a level',
      },
      {
        key: 'fairness',
        label: 'Fairness group',
        kind: 'select',
        options: FAIRNESS_MODES,
        help: 'whose accumulated time decides the level',
      },
    ],
  },
  {
    title: 'Priority queue aging',
    note: 'Effective priority = base − min(cap, ⌊(wait − after) / step⌋).',
    fields: [
      {
        key: 'aging',
        label: 'Aging',
        kind: 'bool',
        help: 'raise long-waiting tasks against starvation',
      },
      {
        key: 'agingAfterMs',
        label: 'Aging after',
        kind: 'number',
        ...knobRange('agingAfterMs', 100),
        unit: 'ms',
        help: 'wait before the first boost',
      },
      {
        key: 'agingStepMs',
        label: 'Aging step',
        kind: 'number',
        ...knobRange('agingStepMs', 100),
        unit: 'ms',
        help: 'wait per one-level boost',
      },
      {
        key: 'agingCap',
        label: 'Aging cap',
        kind: 'number',
        ...knobRange('agingCap', 1),
        help: 'largest boost',
      },
    ],
  },
  {
    title: 'Task graphs',
    note: 'Ready-queue policy and executor for graph runs.',
    fields: [
      {
        key: 'graphPolicy',
        label: 'Graph policy',
        kind: 'select',
        options: GRAPH_POLICIES,
        graph: true,
        help: 'order of ready nodes',
      },
      {
        key: 'executor',
        label: 'Executor',
        kind: 'select',
        options: GRAPH_EXECUTORS,
        graph: true,
        help: 'central queue or work stealing (spans sampled for tiny nodes)',
      },
      {
        key: 'graphErrorMode',
        label: 'Error mode',
        kind: 'select',
        options: GRAPH_ERROR_MODES,
        graph: true,
        help: 'fail-fast stops the run; continue skips only what depends on a failure',
      },
    ],
  },
];

/** The tenants' weights under `fair` (`setTenantWeights`): one field of its own kind. */
export const WEIGHTS_GROUP: { title: string; note: string; fields: FieldDef[] } = {
  title: 'Tenant weights',
  note: 'Under fair, each tenant gets its weight’s share of the workers; tenants not named get 1.',
  fields: [],
};
