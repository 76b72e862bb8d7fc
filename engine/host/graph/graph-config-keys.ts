/**
 * The app's controls send the graph knobs like every other knob: `configure` with
 * `{graphPolicy}`, `{executor}` or `{graphErrorMode}` in its config. Those keys are the graph
 * runner's, not the engine's (whose config schema is strict), so they are taken out of the
 * message here, validated on their own (`INVALID_CONFIG` naming the key), and applied by the
 * session next to the rest. `configureGraph` is the same without the engine part.
 */
import { graphConfigPatchSchema, type GraphConfigPatch } from '../../../shared/protocol.ts';
import { zodToError } from '../../runtime/executor/index.ts';

const GRAPH_KEYS = ['graphPolicy', 'executor', 'graphErrorMode'] as const;

export interface SplitConfigure {
  /** The message without the graph keys (the same object when it had none). */
  readonly message: unknown;
  readonly graph: GraphConfigPatch | null;
}

export function splitGraphConfig(message: unknown): SplitConfigure {
  if (message === null || typeof message !== 'object') return { message, graph: null };
  const m = message as { type?: unknown; config?: unknown };
  if (m.type !== 'configure' || m.config === null || typeof m.config !== 'object')
    return { message, graph: null };
  const config = m.config as Record<string, unknown>;
  if (!GRAPH_KEYS.some((k) => Object.hasOwn(config, k))) return { message, graph: null };
  const engine: Record<string, unknown> = {};
  const graph: Record<string, unknown> = {};
  // Own properties, whatever the name: `target[k] = v` with k `__proto__` set the copy's
  // prototype, so `{"__proto__": {"quantumMs": 5}}` beside a graph key was applied as config.
  for (const [k, v] of Object.entries(config))
    Object.defineProperty((GRAPH_KEYS as readonly string[]).includes(k) ? graph : engine, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  const parsed = graphConfigPatchSchema.safeParse(graph);
  if (!parsed.success) throw zodToError(parsed.error, 'INVALID_CONFIG');
  return { message: { ...m, config: engine }, graph: parsed.data };
}
