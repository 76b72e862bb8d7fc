/**
 * The header's backend: what the live session runs on now (threads, sim and its pace, cluster),
 * and, where the host offers more than one, a choice that switches it the way a preset switch
 * does — asking first whether the old backend's live jobs drain or are cancelled.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { BackendName } from '../../../shared/protocol.ts';
import { useApp, useAppState } from '../context.ts';
import { backendText, switchBackend, switchNotice } from '../data/backend-switch.ts';
import type { SwitchChoice } from '../data/preset-switch.ts';

export function BackendPicker() {
  const { transport, telemetry } = useApp();
  const s = useAppState(
    useShallow((st) => ({
      name: st.backendName,
      speed: st.speed,
      backends: st.backends,
      pending: st.backendSwitch,
      setNotice: st.setNotice,
    })),
  );
  const [asking, setAsking] = useState<{ to: BackendName; live: number } | null>(null);
  const [busy, setBusy] = useState(false);

  const go = async (to: BackendName, mode: SwitchChoice) => {
    setAsking(null);
    setBusy(true);
    try {
      const r = await switchBackend(transport, to, mode);
      s.setNotice({ kind: r.ok ? 'info' : 'error', text: switchNotice(to, r) });
    } finally {
      setBusy(false);
    }
  };

  const choose = (to: BackendName) => {
    const live = telemetry.latest?.counters.live ?? 0;
    if (live > 0) setAsking({ to, live });
    else void go(to, 'cancel');
  };

  return (
    <span className="backend-picker">
      <span data-testid="engine-backend" data-backend={s.name ?? ''}>
        {backendText(s.name, s.speed, s.pending)}
      </span>
      {s.backends.length > 1 && (
        <select
          data-testid="backend-select"
          aria-label="backend"
          title="run the live session on another backend"
          value={s.pending?.to ?? s.name ?? ''}
          disabled={busy}
          onChange={(e) => choose(e.target.value as BackendName)}
        >
          {s.backends.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
      )}
      {asking !== null && (
        <span className="preset-switch backend-switch" role="dialog" data-testid="backend-switch">
          <span>
            {asking.live} {asking.live === 1 ? 'job is' : 'jobs are'} live on {s.name}. Switch to{' '}
            <b>{asking.to}</b> and…
          </span>
          <span className="actions">
            <button
              className="btn"
              data-testid="backend-switch-drain"
              onClick={() => void go(asking.to, 'drain')}
            >
              let them drain first
            </button>
            <button
              className="btn danger"
              data-testid="backend-switch-cancel"
              onClick={() => void go(asking.to, 'cancel')}
            >
              cancel them
            </button>
            <button
              className="btn"
              data-testid="backend-switch-back"
              onClick={() => setAsking(null)}
            >
              back
            </button>
          </span>
        </span>
      )}
    </span>
  );
}
