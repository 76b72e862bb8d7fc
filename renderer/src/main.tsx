/** Entry: builds the store, the data hub and the transport, wires them, mounts the app. */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { Ctx, type AppContext } from './context.ts';
import { GanttViewport } from './data/gantt-viewport.ts';
import { Telemetry } from './data/telemetry.ts';
import { createAppStore, type Theme } from './store/app-store.ts';
import { pickTransport } from './transport/pick-transport.ts';

const THEME_KEY = 'schedlab.theme';

function savedTheme(): Theme {
  const saved = localStorage.getItem(THEME_KEY);
  if (saved === 'dark' || saved === 'light') return saved;
  return matchMedia('(prefers-color-scheme: light)').matches ? 'light' : 'dark';
}

const store = createAppStore({ theme: savedTheme() });
const telemetry = new Telemetry();
const transport = pickTransport();
const viewport = new GanttViewport();

document.documentElement.dataset.theme = store.getState().theme;
store.subscribe((s, prev) => {
  if (s.theme === prev.theme) return;
  document.documentElement.dataset.theme = s.theme;
  localStorage.setItem(THEME_KEY, s.theme);
});

transport.onStatus((status) => store.getState().setStatus(status));
transport.onSnapshot((snapshot) => {
  telemetry.ingestSnapshot(snapshot);
  store.getState().applySnapshot(snapshot);
});
transport.onFrame((frame, skipped) => {
  telemetry.ingestFrame(frame, skipped);
  store.getState().applyFrame(frame);
});
window.addEventListener('beforeunload', () => transport.close());

const ctx: AppContext = { store, telemetry, transport, viewport };
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Ctx.Provider value={ctx}>
      <App />
    </Ctx.Provider>
  </StrictMode>,
);
