/**
 * Controls: every knob with its range, validated with the engine's schema before it is sent,
 * applied live (`configure`, `setPolicy`, `setWorkers`, `setTenantWeights`), the engine's echo
 * next to it, and the engine's error (or the schema's) under the field. A refused value changes
 * nothing.
 */
import { useEffect, useState } from 'react';
import { engineConfigShape, type PolicyName } from '../../../shared/config.ts';
import { graphConfigPatchSchema, type Command, type CommandOf } from '../../../shared/protocol.ts';
import { useApp, useAppState } from '../context.ts';
import { sendCommand } from '../data/commands.ts';
import { checkField, numberOf } from '../data/validate.ts';
import { READ_ONLY_REASON } from '../store/app-store.ts';

import { GROUPS, WEIGHTS_GROUP, type FieldDef } from './control-fields.ts';
import { CommitInput, CommitSlider, FieldShell } from './field-parts.tsx';
import { TenantWeightsField } from './tenant-weights-field.tsx';

/** Knobs the engine's config schema does not (yet) have are shown, disabled, with a note. */
const known = (key: string) => key in engineConfigShape || key in graphConfigPatchSchema.shape;

function commandFor(key: string, value: unknown): Command {
  if (key in graphConfigPatchSchema.shape) {
    return { type: 'configureGraph', config: { [key]: value } };
  }
  if (key === 'policy')
    return {
      type: 'setPolicy',
      policy: value as CommandOf<'setPolicy'>['policy'],
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
  const echo = useAppState(
    (s) =>
      ((def.graph === true ? s.graphConfig : s.config) as Record<string, unknown> | null)?.[
        def.key
      ],
  );
  const error = useAppState((s) => s.fieldErrors[def.key]);
  const connected = useAppState((s) => s.status === 'open');
  const readOnly = useAppState((s) => s.readOnly);
  const enabled = known(def.key) && connected && !readOnly;
  const picked = def.kind === 'select' || def.kind === 'bool';
  const [draft, setDraft] = useState<string>(display(echo));
  const [editing, setEditing] = useState(false);
  const [moved, setMoved] = useState(false);
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
    // An empty input is null for the knobs that may be null (a graph choice, a bound's "none").
    const none = (def.graph === true || def.nullText !== undefined) && String(raw).trim() === '';
    const value = none
      ? null
      : def.kind === 'number'
        ? numberOf(String(raw))
        : def.kind === 'thresholds'
          ? String(raw)
              .split(',')
              .map((x) => numberOf(x))
          : raw;
    const check = checkField(def.key, value);
    if (!check.ok) {
      store.getState().setFieldError(def.key, check.message);
      // A choice has no draft to fix: it shows the engine's value again (text stays for fixing).
      if (picked) setEditing(false);
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
          setEditing(true);
          setDraft(e.target.value);
          void apply(e.target.value);
        }}
      >
        {(!enabled || def.graph === true) && (
          <option value="">{def.graph === true ? 'as the graph document says' : '—'}</option>
        )}
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
            setEditing(true);
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
          <CommitSlider
            field={def.key}
            min={def.min}
            max={def.max}
            step={def.step}
            value={Number.isFinite(numberOf(draft)) ? numberOf(draft) : (def.min ?? 0)}
            disabled={!enabled}
            moved={moved}
            onMoved={(m) => {
              setMoved(m);
              if (m) setEditing(true);
            }}
            onDraft={setDraft}
            onCommit={(text) => void apply(text)}
          />
        )}
        <CommitInput
          field={def.key}
          className={def.kind === 'thresholds' ? 'wide' : ''}
          {...(def.nullText === undefined ? {} : { placeholder: def.nullText })}
          inputMode="decimal"
          value={draft}
          disabled={!enabled}
          editing={editing}
          onEdit={setEditing}
          onDraft={setDraft}
          onCommit={commitText}
          onCancel={() => {
            setEditing(false);
            store.getState().setFieldError(def.key, null);
          }}
        />
        {def.unit !== undefined && <span className="unit">{def.unit}</span>}
      </div>
    );
  }

  return (
    <FieldShell
      field={def.key}
      label={def.label}
      range={def.range ?? ''}
      help={
        !known(def.key)
          ? 'not in the engine’s configuration yet'
          : !connected
            ? 'disconnected: changes wait for the engine'
            : readOnly
              ? READ_ONLY_REASON
              : def.help
      }
      echo={echo === null && def.nullText !== undefined ? def.nullText : display(echo)}
      error={error}
    >
      {input}
    </FieldShell>
  );
}

/** The groups that only mean something under one policy. */
const GROUP_POLICY: Record<string, PolicyName> = {
  'Multilevel split queue': 'mlfq',
  'Priority queue aging': 'priority',
  [WEIGHTS_GROUP.title]: 'fair',
};

/** Every group of knobs, the tenant weights (not an engine config field) last. */
const ALL_GROUPS = [...GROUPS, WEIGHTS_GROUP];

function Fields({ group }: { group: (typeof ALL_GROUPS)[number] }) {
  if (group === WEIGHTS_GROUP) return <TenantWeightsField />;
  return group.fields.map((f) => <Field key={f.key} def={f} />);
}

/**
 * The knobs beside the Live view's charts (a side panel that collapses), so the effect of a
 * change shows while making it; a group for another policy than the running one says so.
 */
export function KnobsPanel() {
  const policy = useAppState((s) => s.policy);
  const hasConfig = useAppState((s) => s.config !== null);
  if (!hasConfig) return <p className="muted">Connect to an engine to change its knobs.</p>;
  return (
    <div className="knobs" data-testid="knobs">
      {ALL_GROUPS.map((g) => {
        const only = GROUP_POLICY[g.title];
        const applies = only === undefined || only === policy;
        return (
          <section
            className={applies ? 'knob-group' : 'knob-group inactive'}
            key={g.title}
            data-applies={applies}
          >
            <h4>
              {g.title}
              {!applies && (
                <span className="hint">
                  {' '}
                  · applies under {only}, not {policy}
                </span>
              )}
            </h4>
            <div className="fields">
              <Fields group={g} />
            </div>
          </section>
        );
      })}
    </div>
  );
}

export function ControlsView() {
  const hasConfig = useAppState((s) => s.config !== null);
  if (!hasConfig) return <div className="empty">Connect to an engine to change its knobs.</div>;
  return (
    <div className="controls" data-testid="view-controls">
      {ALL_GROUPS.map((g) => (
        <section className="panel control-group" key={g.title}>
          <header>
            <h3>{g.title}</h3>
            <span className="hint">{g.note}</span>
          </header>
          <div className="panel-body fields">
            <Fields group={g} />
          </div>
        </section>
      ))}
    </div>
  );
}
