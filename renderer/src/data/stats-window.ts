/**
 * The latency and wait tables' window and the engine's alarms, as the Live view words them:
 * every duration through the one formatter the UI uses (`formatMs`), so an alarm reads "17 s",
 * not "17432.575 ms", and an alarm is shown only while it is current.
 */
import type { Alarm } from '../../../shared/protocol.ts';
import { formatMs } from './gantt-viewport.ts';

const NS_PER_MS = 1e6;

/**
 * What the tables' percentiles are over: the frame's `statsSinceNanos` up to its time (the last
 * 60 s, or since the user's reset or a preset change), or a note when the host does not say.
 */
export function statsWindowText(frame: { timeNanos: number; statsSinceNanos?: number }): string {
  if (frame.statsSinceNanos === undefined) return 'window not reported by this host';
  const span = Math.max(0, (frame.timeNanos - frame.statsSinceNanos) / NS_PER_MS);
  return `over the last ${formatMs(span)}`;
}

/** Figures older than this (backend time) say how old they are. */
export const FIGURES_FRESH_MS = 1000;

/**
 * How old a frame's figures over every live run are (waits in progress, oldest wait, warnings,
 * Jain, fair groups): a host spreads its pass over them across frames when many runs are live,
 * and carries the last finished pass's figures meanwhile (`Frame.figuresAtNanos`). Null while
 * they are fresh, or from a host that does not say.
 */
export function figuresAgeText(frame: {
  timeNanos: number;
  figuresAtNanos?: number;
}): string | null {
  if (frame.figuresAtNanos === undefined) return null;
  const age = (frame.timeNanos - frame.figuresAtNanos) / NS_PER_MS;
  return age < FIGURES_FRESH_MS ? null : `as of ${formatMs(age)} ago`;
}

/** A duration the host wrote in ms (`17432.575 ms`), rewritten the way the UI writes durations. */
export function formatAlarm(message: string): string {
  return message.replace(/(\d+(?:\.\d+)?) ?ms\b/g, (_, v: string) => formatMs(Number(v)));
}

/** A frame older than this (wall time) no longer says what is happening now. */
export const ALARM_STALE_MS = 3000;

/**
 * The alarms to show: the latest frame's, formatted, while connected and that frame is recent.
 * A host raises an alarm in every frame while it holds, so a frame without it clears it; a
 * frame that stopped coming (disconnected, host gone) clears it too rather than leaving it up.
 */
export function alarmsToShow(
  alarms: readonly Alarm[] | undefined,
  connected: boolean,
  frameAgeMs: number,
): Alarm[] {
  if (!connected || frameAgeMs > ALARM_STALE_MS || alarms === undefined) return [];
  return alarms.map((a) => ({ kind: a.kind, message: formatAlarm(a.message) }));
}
