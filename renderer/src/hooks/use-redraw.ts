/**
 * Redraw on data, at most once per animation frame: subscriptions only mark a canvas or chart
 * dirty; the work happens in requestAnimationFrame, so bursts of frames cost one draw.
 */
import { useEffect, useState } from 'react';
import { useApp } from '../context.ts';

export function rafScheduler(draw: () => void): { schedule(): void; cancel(): void } {
  let handle: number | null = null;
  return {
    schedule() {
      if (handle !== null) return;
      handle = requestAnimationFrame(() => {
        handle = null;
        draw();
      });
    },
    cancel() {
      if (handle !== null) cancelAnimationFrame(handle);
      handle = null;
    },
  };
}

/**
 * Chart updates take turns: one chart per animation frame. An SVG chart re-render costs several
 * milliseconds; updating all of them in the frame a telemetry frame arrives would stall the
 * Gantt's animation, one at a time keeps every frame short.
 */
const turns = new Set<() => void>();
let turnHandle: number | null = null;

function pump(): void {
  turnHandle = null;
  const next = turns.values().next();
  if (!next.done) {
    turns.delete(next.value);
    next.value();
  }
  if (turns.size > 0) turnHandle = requestAnimationFrame(pump);
}

export function takeTurn(update: () => void): () => void {
  turns.add(update);
  if (turnHandle === null) turnHandle = requestAnimationFrame(pump);
  return () => turns.delete(update);
}

/**
 * For recharts components and tables: a counter that advances when telemetry changed, at most
 * every `minIntervalMs`, in this component's turn. Only the component using it re-renders.
 */
export function useTelemetryTick(minIntervalMs = 500): number {
  const { telemetry } = useApp();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let last = 0;
    let trailing: ReturnType<typeof setTimeout> | undefined;
    const update = () => {
      last = performance.now();
      setTick((t) => t + 1);
    };
    const unsubscribe = telemetry.subscribe(() => {
      const wait = minIntervalMs - (performance.now() - last);
      if (wait <= 0) takeTurn(update);
      else if (trailing === undefined) {
        trailing = setTimeout(() => {
          trailing = undefined;
          takeTurn(update);
        }, wait);
      }
    });
    return () => {
      unsubscribe();
      turns.delete(update);
      clearTimeout(trailing);
    };
  }, [telemetry, minIntervalMs]);
  return tick;
}
