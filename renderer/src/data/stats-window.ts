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
