/** Workloads: run a preset, load a workload file, submit one job, and the job table. */
import { useState } from 'react';
import { jobSpecSchema, KERNEL_NAMES, type WorkloadStarted } from '../../../shared/protocol.ts';
import { schemaError } from '../../../shared/schema-error.ts';
import { useApp, useAppState } from '../context.ts';
import { switchPreset, type SwitchChoice } from '../data/preset-switch.ts';
import { errorText } from '../data/commands.ts';
import { priorityOf } from '../data/validate.ts';
import { JobDetailPanel } from '../components/job-detail.tsx';
import { JobTable } from '../components/job-table.tsx';
import { canControl, readOnlyReason } from '../store/app-store.ts';
import { SwitchQuestion } from '../components/switch-question.tsx';

/** What the host said of a started preset: fitted to this machine's cores, or as written. */
function presetNotice(preset: string, result: WorkloadStarted | null | undefined): string {
  const fitted = result?.fitted;
  return fitted !== undefined ? `running preset ${preset}: ${fitted}` : `running preset ${preset}`;
}

function Presets() {
  const { transport, store, telemetry } = useApp();
  const presets = useAppState((s) => s.presets);
  const hasSnapshot = useAppState((s) => s.hasSnapshot);
  const readOnly = useAppState(readOnlyReason);
  const [running, setRunning] = useState<string | null>(null);
  // A preset picked while the old workload has live jobs: the user chooses drain or cancel.
  const [asking, setAsking] = useState<{ preset: string; live: number } | null>(null);

  const start = async (preset: string, choice: SwitchChoice) => {
    setAsking(null);
    setRunning(preset);
    store.getState().dismissGraph(telemetry.latest?.graph?.jobId ?? null);
    const out = await switchPreset(transport, preset, choice);
    const s = store.getState();
    if (out.failed !== null) {
      s.setNotice({
        kind: 'error',
        text: `${out.failed.command.type}: ${errorText(out.failed.result.error)}`,
      });
    } else {
      const cancelled = choice === 'cancel' ? `cancelled ${out.cancelled} jobs · ` : '';
      const result = out.started?.ok === true ? out.started.result : undefined;
      s.setNotice({ kind: 'info', text: cancelled + presetNotice(preset, result) });
    }
    setRunning(null);
  };

  return (
    <section className="panel" data-testid="presets">
      <header>
        <h3>Presets</h3>
        <span className="hint">replaces the running workload</span>
      </header>
      <div className="panel-body">
        {asking !== null && (
          <SwitchQuestion
            testId="preset-switch"
            drainLabel="let them drain"
            cancelLabel="cancel what is queued"
            onChoose={(choice) => void start(asking.preset, choice)}
            onBack={() => setAsking(null)}
          >
            {asking.live} {asking.live === 1 ? 'job' : 'jobs'} of the running workload are still
            live. Start <b>{asking.preset}</b> and…
          </SwitchQuestion>
        )}
        {hasSnapshot && presets.length === 0 && (
          // A service's console (the library's) runs the service's own jobs: its host has none.
          <div className="empty small" data-testid="presets-none">
            This host offers no presets: it runs its own work (a service’s console shows the
            service’s jobs).
          </div>
        )}
        <div className="preset-list">
          {presets.map((p) => (
            <button
              key={p}
              className="preset"
              data-testid={`preset-${p}`}
              // Busy, not disabled: a disabled button drops the focus to the page.
              aria-disabled={running !== null || undefined}
              title={readOnly}
              onClick={() => {
                if (running !== null) return;
                const live = telemetry.latest?.counters.live ?? 0;
                if (live > 0) setAsking({ preset: p, live });
                else void start(p, 'drain');
              }}
            >
              <span>{p}</span>
              <span className="preset-run">{running === p ? '…' : 'run ▸'}</span>
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}

function LoadFile() {
  const { transport, store } = useApp();
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <section className="panel">
      <header>
        <h3>Load a workload</h3>
        <span className="hint">JSON document (docs/design.md §5)</span>
      </header>
      <div className="panel-body">
        <input
          type="file"
          accept=".json,application/json"
          data-testid="workload-file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            if (file === undefined) return;
            let workload: unknown;
            try {
              workload = JSON.parse(await file.text());
            } catch (err) {
              setStatus({ ok: false, text: `${file.name} is not JSON: ${String(err)}` });
              return;
            }
            const r = await transport.send({ type: 'loadWorkload', workload });
            setStatus(
              r.ok
                ? { ok: true, text: `loaded ${file.name}` }
                : { ok: false, text: errorText(r.error) },
            );
            if (r.ok) store.getState().setNotice({ kind: 'info', text: `running ${file.name}` });
          }}
        />
        {status !== null && (
          <div className={status.ok ? 'ok-line' : 'field-error'} data-testid="workload-file-status">
            {status.text}
          </div>
        )}
      </div>
    </section>
  );
}

function SubmitJob() {
  const { transport } = useApp();
  const [cls, setCls] = useState('adhoc');
  const [priority, setPriority] = useState('50');
  const [kernel, setKernel] = useState<(typeof KERNEL_NAMES)[number]>('spin');
  const [splits, setSplits] = useState('4');
  const [splitMs, setSplitMs] = useState('200');
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [lastJob, setLastJob] = useState<number | null>(null);

  const submit = async () => {
    const n = Number(splits);
    // As the jobs table's: an empty box was priority 0 (urgent), '0x10' 16.
    const checked = priorityOf(priority, 'basePriority');
    if (!checked.ok) {
      setResult({ ok: false, text: checked.message });
      return;
    }
    const job = {
      class: cls,
      basePriority: checked.priority,
      tasks: [
        {
          splits: Array.from(
            { length: Number.isInteger(n) && n > 0 && n <= 10_000 ? n : 0 },
            () => ({
              kind: 'leaf' as const,
              work: { kernel, totalNanos: Math.round(Number(splitMs) * 1e6) },
            }),
          ),
        },
      ],
    };
    const parsed = jobSpecSchema.safeParse(job);
    if (!parsed.success) {
      setResult({
        ok: false,
        text: schemaError(parsed.error, 'INVALID_ARGUMENT', [], 'job').message,
      });
      return;
    }
    if (job.tasks[0]!.splits.length === 0) {
      setResult({ ok: false, text: 'splits must be an integer from 1 to 10000' });
      return;
    }
    const r = await transport.send({ type: 'submitJob', job: parsed.data });
    setLastJob(r.ok ? r.jobId : null);
    setResult(
      r.ok
        ? { ok: true, text: `submitted job ${r.jobId}` }
        : { ok: false, text: errorText(r.error) },
    );
  };

  const cancelLast = async () => {
    if (lastJob === null) return;
    const r = await transport.send({ type: 'cancelJob', jobId: lastJob });
    setResult(
      r.ok
        ? { ok: true, text: `cancelled job ${lastJob}` }
        : { ok: false, text: errorText(r.error) },
    );
    if (r.ok) setLastJob(null);
  };

  return (
    <section className="panel">
      <header>
        <h3>Submit one job</h3>
        <span className="hint">one task of identical leaf splits</span>
      </header>
      <div className="panel-body submit-grid">
        <label>
          class
          <input data-testid="submit-class" value={cls} onChange={(e) => setCls(e.target.value)} />
        </label>
        <label>
          priority (0 = urgent)
          <input
            data-testid="submit-priority"
            value={priority}
            onChange={(e) => setPriority(e.target.value)}
          />
        </label>
        <label>
          kernel
          <select
            data-testid="submit-kernel"
            value={kernel}
            onChange={(e) => setKernel(e.target.value as typeof kernel)}
          >
            {KERNEL_NAMES.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label>
          splits
          <input
            data-testid="submit-splits"
            value={splits}
            onChange={(e) => setSplits(e.target.value)}
          />
        </label>
        <label>
          work per split (ms)
          <input
            data-testid="submit-split-ms"
            value={splitMs}
            onChange={(e) => setSplitMs(e.target.value)}
          />
        </label>
        <button className="btn primary" data-testid="submit-job" onClick={() => void submit()}>
          Submit
        </button>
        {result !== null && (
          <div
            className={result.ok ? 'ok-line' : 'field-error'}
            data-testid="submit-result"
            data-job-id={lastJob ?? ''}
          >
            {result.text}
            {lastJob !== null && (
              <button
                className="btn small danger inline"
                data-testid="submit-cancel"
                onClick={() => void cancelLast()}
              >
                cancel it
              </button>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

export function WorkloadsView() {
  // A read-only host (a service's console) runs nothing the app sends: every input here is off,
  // and a line at the top says why.
  const control = useAppState(canControl);
  const readOnly = useAppState(readOnlyReason);
  return (
    <div className="workloads" data-testid="view-workloads">
      <fieldset className="workloads-side" disabled={!control} data-testid="workload-inputs">
        {readOnly !== undefined && (
          <p className="read-only-note" role="note" data-testid="workloads-read-only">
            {readOnly}
          </p>
        )}
        <Presets />
        <LoadFile />
        <SubmitJob />
      </fieldset>
      <section className="panel jobs-panel">
        <header>
          <h3>Jobs</h3>
          <span className="hint">
            live first, then recently ended · enter a priority and press set
          </span>
        </header>
        <div className="panel-body">
          <JobTable />
        </div>
      </section>
      <JobDetailPanel />
    </div>
  );
}
