/**
 * Controls: every knob with its range, validated with the engine's schema before it is sent,
 * applied live (`configure`, `setPolicy`, `setWorkers`), the engine's echo next to it, and the
 * engine's error (or the schema's) under the field. A refused value changes nothing.
 */
import { useEffect, useState } from 'react';
import { engineConfigShape, FAIRNESS_MODES, POLICY_NAMES } from '../../../shared/config.ts';
import { GRAPH_EXECUTORS, GRAPH_POLICIES } from '../../../shared/graph.ts';
import type { Command } from '../../../shared/protocol.ts';
import { useApp, useAppState } from '../context.ts';
import { sendCommand } from '../data/commands.ts';
import { checkField, numberOf } from '../data/validate.ts';

type Kind = 'number' | 'select' | 'bool' | 'thresholds';

interface FieldDef {
  key: string;
  label: string;
  kind: Kind;
  help: string;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  options?: readonly string[];
  /** A slider next to the number input. */
  slider?: boolean;
}

const GROUPS: { title: string; note: string; fields: FieldDef[] }[] = [
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
        min: 1,
        max: 256,
        step: 1,
        help: 'worker threads (or simulated slots), resized live',
      },
      {
        key: 'quantumMs',
        label: 'Quantum',
        kind: 'number',
        min: 0.01,
        max: 600_000,
        step: 1,
        unit: 'ms',
        help: 'time slice per dispatch',
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
        min: 1.1,
        max: 16,
        step: 0.1,
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
        min: 0,
        max: 86_400_000,
        step: 1,
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
        min: 0,
        max: 86_400_000,
        step: 100,
        unit: 'ms',
        help: 'wait before the first boost',
      },
      {
        key: 'agingStepMs',
        label: 'Aging step',
        kind: 'number',
        min: 0.001,
        max: 86_400_000,
        step: 100,
        unit: 'ms',
        help: 'wait per one-level boost',
      },
      {
        key: 'agingCap',
        label: 'Aging cap',
        kind: 'number',
        min: 0,
        max: 100,
        step: 1,
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
        help: 'order of ready nodes',
      },
      {
        key: 'executor',
        label: 'Executor',
        kind: 'select',
        options: GRAPH_EXECUTORS,
        help: 'central queue or work stealing',
      },
    ],
  },
];

/** Knobs the engine's config schema does not (yet) have are shown, disabled, with a note. */
const known = (key: string) => key in engineConfigShape;

function commandFor(key: string, value: unknown): Command {
  if (key === 'policy')
    return {
      type: 'setPolicy',
      policy: value as Command & { type: 'setPolicy' } extends { policy: infer P } ? P : never,
    };
  if (key === 'workers') return { type: 'setWorkers', workers: value as number };
  return { type: 'configure', config: { [key]: value } };
}

function display(v: unknown): string {
  if (v === undefined || v === null) return '—';
  if (Array.isArray(v)) return v.join(', ');
  return String(v);
}

function Field({ def }: { def: FieldDef }) {
  const { transport, store } = useApp();
  const echo = useAppState((s) => (s.config as Record<string, unknown> | null)?.[def.key]);
  const error = useAppState((s) => s.fieldErrors[def.key]);
  const enabled = known(def.key);
  const [draft, setDraft] = useState<string>(display(echo));
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);

  // Follow the engine's echo unless the user is typing.
  useEffect(() => {
    if (!editing)
      setDraft(
        echo === undefined || echo === null
          ? ''
          : Array.isArray(echo)
            ? echo.join(', ')
            : String(echo),
      );
  }, [echo, editing]);

  const apply = async (raw: unknown) => {
    const value =
      def.kind === 'number'
        ? numberOf(String(raw))
        : def.kind === 'thresholds'
          ? String(raw)
              .split(',')
              .map((x) => numberOf(x))
          : raw;
    const check = checkField(def.key, value);
    if (!check.ok) {
      store.getState().setFieldError(def.key, check.message);
      return;
    }
    setBusy(true);
    await sendCommand(transport, store, commandFor(def.key, value), def.key);
    setBusy(false);
    setEditing(false);
  };

  const id = `field-${def.key}`;
  let input: React.ReactNode;
  if (def.kind === 'select') {
    input = (
      <select
        id={id}
        data-testid={id}
        value={draft}
        disabled={!enabled || busy}
        onChange={(e) => {
          setDraft(e.target.value);
          void apply(e.target.value);
        }}
      >
        {!enabled && <option value="">—</option>}
        {def.options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (def.kind === 'bool') {
    input = (
      <label className="switch">
        <input
          id={id}
          data-testid={id}
          type="checkbox"
          checked={draft === 'true'}
          disabled={!enabled || busy}
          onChange={(e) => {
            setDraft(String(e.target.checked));
            void apply(e.target.checked);
          }}
        />
        <span>{draft === 'true' ? 'on' : 'off'}</span>
      </label>
    );
  } else {
    const commitText = () => void apply(draft);
    input = (
      <div className="field-inputs">
        {def.slider === true && (
          <input
            type="range"
            data-testid={`slider-${def.key}`}
            min={def.min}
            max={def.max}
            step={def.step}
            value={Number.isFinite(numberOf(draft)) ? numberOf(draft) : (def.min ?? 0)}
            disabled={!enabled}
            onChange={(e) => {
              setEditing(true);
              setDraft(e.target.value);
            }}
            onPointerUp={(e) => void apply((e.target as HTMLInputElement).value)}
            onKeyUp={(e) => void apply((e.target as HTMLInputElement).value)}
          />
        )}
        <input
          id={id}
          data-testid={id}
          className={def.kind === 'thresholds' ? 'wide' : ''}
          inputMode="decimal"
          value={draft}
          disabled={!enabled}
          onFocus={() => setEditing(true)}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => {
            if (editing) commitText();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') commitText();
            if (e.key === 'Escape') {
              setEditing(false);
              store.getState().setFieldError(def.key, null);
            }
          }}
        />
        {def.unit !== undefined && <span className="unit">{def.unit}</span>}
      </div>
    );
  }

  return (
    <div className={error === undefined ? 'field' : 'field invalid'}>
      <label htmlFor={id}>
        {def.label}
        <span className="range">{def.min !== undefined ? `${def.min} – ${def.max}` : ''}</span>
      </label>
      {input}
      <div className="field-meta">
        <span className="help">{enabled ? def.help : 'not in the engine’s configuration yet'}</span>
        <span className="echo" data-testid={`echo-${def.key}`}>
          engine: {display(echo)}
        </span>
      </div>
      {error !== undefined && (
        <div className="field-error" role="alert" data-testid={`error-${def.key}`}>
          {error}
        </div>
      )}
    </div>
  );
}

export function ControlsView() {
  const hasConfig = useAppState((s) => s.config !== null);
  if (!hasConfig) return <div className="empty">Connect to an engine to change its knobs.</div>;
  return (
    <div className="controls" data-testid="view-controls">
      {GROUPS.map((g) => (
        <section className="panel control-group" key={g.title}>
          <header>
            <h3>{g.title}</h3>
            <span className="hint">{g.note}</span>
          </header>
          <div className="panel-body fields">
            {g.fields.map((f) => (
              <Field key={f.key} def={f} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
