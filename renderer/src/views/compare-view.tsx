/**
 * Compare: the same seeded workload under 2–4 configs on the simulator (docs/design.md §7). The engine
 * runs each config on a fresh simulator of its own (the `compare` command), so the live session
 * keeps running; this view only builds the command and lays the reports side by side. The form,
 * the run and its answer are the app store's `compare` (run by data/compare-run.ts), so they
 * outlive the view when the user switches tabs mid-run.
 */
import { useRef } from 'react';
import { useApp, useAppState } from '../context.ts';
import { cancelCompare, comparePreset, runCompare } from '../data/compare-run.ts';
import { canControl, COMPARE_FILE as FILE, readOnlyReason } from '../store/app-store.ts';
import {
  DEFAULT_FORMS,
  fitForms,
  isGraphWorkload,
  nextPolicy,
  policyChoices,
  type ConfigForm,
} from '../data/compare-rows.ts';
import { CompareChart, CompareTable } from './compare-results.tsx';
import { CompareCdfs, CompareSeries } from './compare-series.tsx';

const DURATIONS_S = [5, 10, 30, 60] as const;
const NUMBER_INPUTS = [
  ['workers', 'workers', 'workload’s'],
  ['quantumMs', 'quantum (ms)', 'workload’s'],
  ['levelTimeMultiplier', 'm (level time ×)', 'workload’s'],
] as const;

function ConfigCard(props: {
  index: number;
  form: ConfigForm;
  /** The workload is a task graph: the policy orders its ready nodes. */
  graph: boolean;
  onChange: (f: ConfigForm) => void;
  onRemove: (() => void) | null;
}) {
  const { index: i, form, onChange } = props;
  const id = (k: string) => `compare-config-${i}-${k}`;
  return (
    <fieldset
      className="submit-grid"
      data-testid={`compare-config-${i}`}
      style={{ ...cardStyle, gridTemplateColumns: 'repeat(3, minmax(0, 1fr))' }}
    >
      <legend>config {i + 1}</legend>
      <label>
        label
        <input
          data-testid={id('label')}
          placeholder="(from the fields)"
          value={form.label}
          onChange={(e) => onChange({ ...form, label: e.target.value })}
        />
      </label>
      <label>
        policy
        <select
          data-testid={id('policy')}
          value={form.policy}
          onChange={(e) => onChange({ ...form, policy: e.target.value as ConfigForm['policy'] })}
        >
          {policyChoices(props.graph).map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
      </label>
      {NUMBER_INPUTS.map(([key, name, placeholder]) => (
        <label key={key}>
          {name}
          <input
            data-testid={id(key)}
            inputMode="decimal"
            placeholder={placeholder}
            value={form[key]}
            onChange={(e) => onChange({ ...form, [key]: e.target.value })}
          />
        </label>
      ))}
      {props.onRemove !== null && (
        <button className="btn small" data-testid={id('remove')} onClick={props.onRemove}>
          remove
        </button>
      )}
    </fieldset>
  );
}

const cardStyle = { border: '1px solid var(--border)', borderRadius: 6, padding: 8 } as const;

export function CompareView() {
  const { transport, store } = useApp();
  const presets = useAppState((s) => s.presets);
  const graphPresets = useAppState((s) => s.graphPresets);
  // The form, the run and its answer live in the store: they outlive this view (a tab switch).
  const form = useAppState((s) => s.compare);
  const setCompare = useAppState((s) => s.setCompare);
  const control = useAppState(canControl);
  const readOnly = useAppState(readOnlyReason);
  const { doc, durationS, seed, forms, running, cancelled, error, result } = form;
  const preset = comparePreset(form.preset, presets);
  const setForms = (next: ConfigForm[]) => setCompare({ forms: next });
  const graph = preset === FILE ? isGraphWorkload(doc?.doc) : graphPresets.includes(preset);
  const run = () => runCompare(transport, store);
  const runButton = useRef<HTMLButtonElement>(null);

  return (
    <div className="compare" data-testid="view-compare">
      <section className="panel">
        <header>
          <h3>Compare configurations</h3>
          <span className="hint">same seeded workload · simulator · 2–4 configs</span>
        </header>
        <div className="panel-body" style={{ display: 'grid', gap: 12 }}>
          <div className="submit-grid">
            <label>
              workload
              <select
                data-testid="compare-source"
                value={preset}
                onChange={(e) => {
                  const next = e.target.value;
                  setCompare({
                    preset: next,
                    forms: fitForms(
                      forms,
                      next === FILE ? isGraphWorkload(doc?.doc) : graphPresets.includes(next),
                    ),
                  });
                }}
              >
                {presets.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
                <option value={FILE}>workload file…</option>
              </select>
            </label>
            <label>
              simulated time
              <select
                data-testid="compare-duration"
                value={durationS}
                onChange={(e) => setCompare({ durationS: Number(e.target.value) })}
              >
                {DURATIONS_S.map((s) => (
                  <option key={s} value={s}>
                    {s} s
                  </option>
                ))}
              </select>
            </label>
            {preset === FILE && (
              <label style={{ gridColumn: '1 / -1' }}>
                {doc === null ? 'JSON document (docs/design.md §5)' : `using ${doc.name}`}
                <input
                  type="file"
                  accept=".json,application/json"
                  data-testid="compare-workload-file"
                  onChange={async (e) => {
                    const file = e.target.files?.[0];
                    if (file === undefined) return;
                    try {
                      const parsed: unknown = JSON.parse(await file.text());
                      setCompare({
                        doc: { name: file.name, doc: parsed },
                        forms: fitForms(forms, isGraphWorkload(parsed)),
                        error: null,
                      });
                    } catch (err) {
                      setCompare({ error: `${file.name} is not JSON: ${String(err)}` });
                    }
                  }}
                />
              </label>
            )}
            <label>
              seed
              <input
                data-testid="compare-seed"
                placeholder="the workload's"
                value={seed}
                onChange={(e) => setCompare({ seed: e.target.value })}
              />
            </label>
          </div>
          {forms.map((f, i) => (
            <ConfigCard
              key={i}
              index={i}
              form={f}
              graph={graph}
              onChange={(next) => setForms(forms.map((g, j) => (j === i ? next : g)))}
              onRemove={forms.length > 2 ? () => setForms(forms.filter((_, j) => j !== i)) : null}
            />
          ))}
          <div style={{ display: 'flex', gap: 8 }}>
            <button
              className="btn"
              data-testid="compare-add"
              disabled={forms.length >= 4}
              onClick={() =>
                setForms([...forms, { ...DEFAULT_FORMS[0]!, policy: nextPolicy(forms, graph) }])
              }
            >
              + config
            </button>
            <button
              ref={runButton}
              className="btn primary"
              data-testid="compare-run"
              disabled={!control}
              // Busy, not disabled: a disabled button drops the focus to the page.
              aria-disabled={running || undefined}
              title={readOnly}
              onClick={() => void run()}
            >
              {running ? 'running…' : 'run comparison ▸'}
            </button>
            {running && (
              <button
                className="btn danger"
                data-testid="compare-cancel"
                title="stop the comparison (Esc)"
                onClick={() => {
                  // This button goes with the run: the focus goes back to the run button.
                  runButton.current?.focus();
                  void cancelCompare(transport, store);
                }}
              >
                cancel
              </button>
            )}
          </div>
          {cancelled && !running && (
            <div className="muted" role="status" data-testid="compare-cancelled">
              comparison cancelled
              {result === null ? '' : ': the results below are from the last one that ran'}
            </div>
          )}
          {error !== null && (
            <div className="field-error" role="alert" data-testid="compare-error">
              {error}
            </div>
          )}
        </div>
      </section>
      <section className="panel" data-testid="compare-results">
        <header>
          <h3>Side by side</h3>
          <span className="hint" data-testid="compare-summary">
            {result === null
              ? 'no comparison yet'
              : `${result.workload} · sim · seed ${result.seed} · ${result.durationMs / 1000} s`}
          </span>
        </header>
        <div className="panel-body" style={{ display: 'grid', gap: 16 }}>
          {result === null ? (
            <div className="empty small" data-testid="compare-empty">
              Pick a workload and 2–4 configs, then run: each config runs the same seeded workload
              on its own simulator; the live session is not touched.
            </div>
          ) : (
            <>
              <CompareTable result={result} />
              <h4 style={{ margin: 0 }}>over the run, per config</h4>
              <CompareSeries result={result} />
              <h4 style={{ margin: 0 }}>latency distribution per class</h4>
              <CompareCdfs result={result} />
              <h4 style={{ margin: 0 }}>p95 latency per class</h4>
              <CompareChart result={result} />
            </>
          )}
        </div>
      </section>
    </div>
  );
}
