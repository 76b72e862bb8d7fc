/**
 * The header's backend: what the live session runs on now (threads, sim and its pace, cluster),
 * and, where the host offers more than one, a choice that switches it the way a preset switch
 * does — asking first whether the old backend's live jobs drain or are cancelled. On the
 * simulator, its pace (`setSpeed`): minutes of engine time (a starvation bound) pass in seconds.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { BackendName } from '../../../shared/protocol.ts';
import { useApp, useAppState } from '../context.ts';
import { backendText, switchBackend, switchNotice } from '../data/backend-switch.ts';
import { sendCommand } from '../data/commands.ts';
import type { SwitchChoice } from '../data/preset-switch.ts';
import { SwitchQuestion } from './switch-question.tsx';

/** The simulator's paces on offer, with the one running now if it is another. */
const SPEEDS: readonly (number | 'max')[] = [1, 10, 100, 'max'];
function speedChoices(now: number | 'max' | null): (number | 'max')[] {
  return now === null || SPEEDS.includes(now) ? [...SPEEDS] : [...SPEEDS, now];
}

export function BackendPicker() {
  const { transport, telemetry, store } = useApp();
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
        {/* On the simulator the pace selector says the pace; the text would say it twice and
            push the header onto a second row at 1024 px. */}
        {backendText(s.name, s.name === 'sim' ? null : s.speed, s.pending)}
      </span>
      {s.name === 'sim' && (
        <select
          data-testid="sim-speed"
          aria-label="simulator speed"
          title="virtual time per real time while the simulator runs live"
          value={String(s.speed ?? 1)}
          onChange={(e) => {
            const v = e.target.value;
            void sendCommand(transport, store, {
              type: 'setSpeed',
              speed: v === 'max' ? 'max' : Number(v),
            });
          }}
        >
          {speedChoices(s.speed).map((v) => (
            <option key={v} value={String(v)}>
              {v === 'max' ? 'max' : `${v}×`}
            </option>
          ))}
        </select>
      )}
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
        <SwitchQuestion
          testId="backend-switch"
          inline
          className="backend-switch"
          drainLabel="let them drain first"
          cancelLabel="cancel them"
          onChoose={(mode) => void go(asking.to, mode)}
          onBack={() => setAsking(null)}
        >
          {asking.live} {asking.live === 1 ? 'job is' : 'jobs are'} live on {s.name}. Switch to{' '}
          <b>{asking.to}</b> and…
        </SwitchQuestion>
      )}
    </span>
  );
}
