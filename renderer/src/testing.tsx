/**
 * For the renderer's tests: a component rendered once, server-side (there is no DOM in the unit
 * tests; e2e/ clicks in Chromium), inside an app context of the state a test gives.
 */
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { Ctx, type AppContext } from './context.ts';
import { GanttViewport } from './data/gantt-viewport.ts';
import { Telemetry } from './data/telemetry.ts';
import { createAppStore, type AppState } from './store/app-store.ts';
import type { Transport } from './transport/transport.ts';

export interface StaticContext {
  readonly state?: Partial<AppState>;
  readonly telemetry?: Telemetry;
  readonly transport?: Transport;
}

/** `node`'s HTML, without React's `<!-- -->` between adjacent texts (so tests read the text). */
export function renderStatic(node: ReactNode, context: StaticContext = {}): string {
  const ctx: AppContext = {
    store: createAppStore(context.state),
    telemetry: context.telemetry ?? new Telemetry(),
    transport: context.transport ?? ({ host: 'bench' } as unknown as Transport),
    viewport: new GanttViewport(),
  };
  return renderToString(<Ctx.Provider value={ctx}>{node}</Ctx.Provider>).replace(/<!-- -->/g, '');
}
