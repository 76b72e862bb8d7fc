/**
 * Redraw on data, at most once per animation frame: the subscription only marks the canvas or
 * chart dirty; the draw happens in requestAnimationFrame, so bursts of frames cost one draw.
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
 * For recharts components: a counter that advances at most once per animation frame (and at
 * most every `minIntervalMs`) when telemetry changes. Only the component using it re-renders.
 */
export function useTelemetryTick(minIntervalMs = 250): number {
  const { telemetry } = useApp();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let last = 0;
    let trailing: ReturnType<typeof setTimeout> | undefined;
    const raf = rafScheduler(() => {
      last = performance.now();
      setTick((t) => t + 1);
    });
    const unsubscribe = telemetry.subscribe(() => {
      const wait = minIntervalMs - (performance.now() - last);
      if (wait <= 0) raf.schedule();
      else if (trailing === undefined) {
        trailing = setTimeout(() => {
          trailing = undefined;
          raf.schedule();
        }, wait);
      }
    });
    return () => {
      unsubscribe();
      raf.cancel();
      clearTimeout(trailing);
    };
  }, [telemetry, minIntervalMs]);
  return tick;
}
