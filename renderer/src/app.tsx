/** The shell: header with views, connection and engine state, the active view, shortcuts. */
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from './context.ts';
import { BackendPicker } from './components/backend-picker.tsx';
import { togglePause } from './data/commands.ts';
import { cancelCompare } from './data/compare-run.ts';
import { shortcutOf } from './data/shortcuts.ts';
import { canControl, READ_ONLY_REASON, VIEWS, type ViewName } from './store/app-store.ts';
import { CompareView } from './views/compare-view.tsx';
import { ControlsView } from './views/controls-view.tsx';
import { ExportView } from './views/export-view.tsx';
import { LiveView } from './views/live-view.tsx';
import { WorkloadsView } from './views/workloads-view.tsx';

const TITLES: Record<ViewName, string> = {
  live: 'Live',
  controls: 'Controls',
  workloads: 'Workloads',
  compare: 'Compare',
  export: 'Export',
};

/** Focuses the job search of the view, or the Live view's when this view has none. */
function focusSearch(store: ReturnType<typeof useApp>['store']): void {
  const find = () => document.querySelector<HTMLInputElement>('[data-testid="job-search"]');
  const box = find();
  if (box !== null) {
    box.focus();
    return;
  }
  store.getState().setView('live');
  requestAnimationFrame(() => find()?.focus());
}

function useShortcuts() {
  const { store, transport, viewport } = useApp();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const s = store.getState();
      // Esc clears the selection wherever the focus is (in a field it also leaves the field);
      // on the Compare view it also stops the comparison running there.
      if (e.key === 'Escape') {
        s.selectJob(null);
        if (s.view === 'compare') void cancelCompare(transport, store);
        return;
      }
      const shortcut = shortcutOf(e.key, e.target);
      if (shortcut === null) return;
      // '/' is not also typed into the search it focuses; space does not also scroll the page.
      if (shortcut.kind === 'search' || shortcut.kind === 'pause') e.preventDefault();
      if (shortcut.kind === 'search') focusSearch(store);
      else if (shortcut.kind === 'pause') togglePause(transport, store);
      else if (shortcut.kind === 'zoom') viewport.zoom(shortcut.factor, s.follow ? 1 : 0.5);
      else if (shortcut.kind === 'follow') s.setFollow(!s.follow);
      else s.setView(VIEWS[shortcut.index]!);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, transport, viewport]);
}

function Header() {
  const { transport, store } = useApp();
  const s = useAppState(
    useShallow((st) => ({
      view: st.view,
      status: st.status,
      readOnly: st.readOnly,
      control: canControl(st),
      paused: st.paused,
      policy: st.policy,
      workers: st.workerCount,
      theme: st.theme,
      setView: st.setView,
      toggleTheme: st.toggleTheme,
    })),
  );
  return (
    <header className="app-header">
      <div className="brand">
        <span className="logo" aria-hidden>
          ▤
        </span>
        SchedLab
      </div>
      <nav className="tabs" role="tablist">
        {VIEWS.map((v, i) => (
          <button
            key={v}
            role="tab"
            aria-selected={s.view === v}
            className={s.view === v ? 'tab on' : 'tab'}
            data-testid={`nav-${v}`}
            onClick={() => s.setView(v)}
          >
            {TITLES[v]}
            <kbd>{i + 1}</kbd>
          </button>
        ))}
      </nav>
      <div className="spacer" />
      <div className="engine-state" data-testid="engine-state">
        <span
          className={`dot ${s.status}`}
          data-testid="connection-status"
          data-status={s.status}
        />
        {s.status === 'open' ? (
          <>
            <b data-testid="engine-policy">{s.policy ?? '…'}</b>
            {s.readOnly && (
              <span className="read-only" data-testid="read-only" title={READ_ONLY_REASON}>
                read-only
              </span>
            )}
            <BackendPicker />
            <span>{s.workers} workers</span>
          </>
        ) : (
          <span>
            {s.status === 'connecting'
              ? 'connecting…'
              : s.status === 'ended'
                ? 'session ended'
                : s.status === 'stopped'
                  ? 'server stopped'
                  : 'disconnected'}
          </span>
        )}
      </div>
      <button
        className={s.paused ? 'btn primary' : 'btn'}
        data-testid="pause-toggle"
        data-paused={s.paused}
        disabled={!s.control}
        title={s.readOnly ? READ_ONLY_REASON : 'space'}
        onClick={() => togglePause(transport, store)}
      >
        {s.paused ? '▶ Resume' : '❚❚ Pause'}
      </button>
      <button
        className="btn icon"
        data-testid="theme-toggle"
        title={`switch to ${s.theme === 'dark' ? 'light' : 'dark'} theme`}
        onClick={s.toggleTheme}
      >
        {s.theme === 'dark' ? '☀' : '☾'}
      </button>
    </header>
  );
}

function Banner() {
  const { status, hasSnapshot } = useAppState(
    useShallow((s) => ({ status: s.status, hasSnapshot: s.hasSnapshot })),
  );
  if (status === 'open') return null;
  if (status === 'ended') {
    return (
      <div className="banner ended" role="alert" data-testid="session-ended">
        <b>This session has ended.</b> The SchedLab server this page belonged to was restarted or
        stopped, and the server now running does not accept this page’s token. Open the URL the new
        server printed when it started (<code>http://127.0.0.1:…/?token=…</code>); what you see
        below is the last state this page received.
      </div>
    );
  }
  if (status === 'stopped') {
    return (
      <div className="banner ended" role="alert" data-testid="server-stopped">
        <b>The server stopped.</b> The SchedLab server this page belonged to closed the connection
        as it shut down. When it starts again, open the URL it prints (
        <code>http://127.0.0.1:…/?token=…</code>): on a new port, this page cannot follow; back on
        this port with the same token (<code>serve --keep-token</code>), it reconnects by itself.
        What you see below is the last state this page received.
      </div>
    );
  }
  return (
    <div className="banner" role="status" data-testid="disconnected-banner">
      {status === 'connecting' && !hasSnapshot
        ? 'Connecting to the engine…'
        : 'Disconnected from the engine — reconnecting. What you see is the last state received.'}
    </div>
  );
}

function Notice() {
  const notice = useAppState((s) => s.notice);
  const setNotice = useAppState((s) => s.setNotice);
  useEffect(() => {
    if (notice === null) return;
    const t = setTimeout(() => setNotice(null), notice.kind === 'error' ? 8000 : 3000);
    return () => clearTimeout(t);
  }, [notice, setNotice]);
  if (notice === null) return null;
  return (
    <div
      className={`notice ${notice.kind}`}
      role="alert"
      data-testid="notice"
      onClick={() => setNotice(null)}
    >
      {notice.text}
    </div>
  );
}

export function App() {
  useShortcuts();
  const view = useAppState((s) => s.view);
  return (
    <div className="app">
      <Header />
      <Banner />
      <main className="view">
        {view === 'live' && <LiveView />}
        {view === 'controls' && <ControlsView />}
        {view === 'workloads' && <WorkloadsView />}
        {view === 'compare' && <CompareView />}
        {view === 'export' && <ExportView />}
      </main>
      <Notice />
      <footer className="app-footer">
        <span>
          <kbd>space</kbd> pause (on a button: presses it) · <kbd>+</kbd>/<kbd>−</kbd> zoom ·{' '}
          <kbd>f</kbd> follow · <kbd>1</kbd>–<kbd>5</kbd> views · <kbd>/</kbd> search jobs ·{' '}
          <kbd>Esc</kbd> clear the selection (Compare: cancel the run)
        </span>
      </footer>
    </div>
  );
}
