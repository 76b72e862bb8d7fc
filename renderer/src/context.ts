/** What every component may reach: the UI store, the data hub, the transport, the Gantt window. */
import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { GanttViewport } from './data/gantt-viewport.ts';
import type { Telemetry } from './data/telemetry.ts';
import type { AppActions, AppState, AppStore } from './store/app-store.ts';
import type { Transport } from './transport/transport.ts';

export interface AppContext {
  store: AppStore;
  telemetry: Telemetry;
  transport: Transport;
  viewport: GanttViewport;
}

export const Ctx = createContext<AppContext | null>(null);

export function useApp(): AppContext {
  const ctx = useContext(Ctx);
  if (ctx === null) throw new Error('useApp outside <Ctx.Provider>');
  return ctx;
}

/** Reads UI state through a selector; pair with `useShallow` for derived objects. */
export function useAppState<T>(selector: (s: AppState & AppActions) => T): T {
  return useStore(useApp().store, selector);
}
