/** CSV of the per-frame series (one row per frame in the rings), for spreadsheets and notebooks. */
import type { FramePoint } from './telemetry.ts';

export function seriesCsv(points: readonly FramePoint[], levels: number): string {
  const lv = Array.from({ length: levels }, (_, l) => l);
  const header = [
    'seq',
    'time_ms',
    ...lv.map((l) => `depth_L${l}`),
    ...lv.map((l) => `scheduled_ms_L${l}`),
    ...lv.map((l) => `selections_L${l}`),
    'utilization',
    'submitted',
    'succeeded',
    'live',
  ];
  const rows = points.map((p) =>
    [
      p.seq,
      round(p.tMs),
      ...lv.map((l) => p.depth[l] ?? 0),
      ...lv.map((l) => round(p.levelMs[l] ?? 0)),
      ...lv.map((l) => p.selections[l] ?? 0),
      round(p.utilization),
      p.submitted,
      p.succeeded,
      p.live,
    ].join(','),
  );
  return [header.join(','), ...rows].join('\n') + '\n';
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Starts a browser download of `text` (Blob + object URL; revoked after the click). */
export function download(filename: string, text: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
