/**
 * CSV of the per-frame series (one row per frame in the rings), for spreadsheets and notebooks.
 * Per level: `depth`, `level_clock_ms` (the queue's internal level clock, which jumps when an
 * empty level is caught up), `charged_ms` (time charged to the level, cumulative: what level
 * shares are taken from; where the series keeps it), `selections` and `aging_boosts` (PRIO only:
 * cumulative aging boosts of the band, empty for other policies). Every row names the policy
 * and config it was taken under: its own frame's (telemetry keeps it), else the export's where
 * the policy is the same, else none.
 */
import type { EngineConfig, PolicyName } from '../../../shared/config.ts';
import type { FramePoint } from './telemetry.ts';

export interface CsvContext {
  /** The policy and config now, for rows that do not carry their own. */
  policy?: PolicyName | undefined;
  config?: EngineConfig | undefined;
}

export function seriesCsv(
  points: readonly FramePoint[],
  levels: number,
  context: CsvContext = {},
): string {
  // Every level any row has: after a switch from mlfq to fifo the latest frame has one level,
  // and sizing by it dropped the earlier rows' L1–L4 columns without a word. A row's own levels
  // beyond what it has are left empty.
  let width = levels;
  for (const p of points) width = Math.max(width, p.depth.length);
  const lv = Array.from({ length: width }, (_, l) => l);
  const has = (p: FramePoint, l: number) => l < p.depth.length;
  const header = [
    'seq',
    'time_ms',
    'policy',
    ...lv.map((l) => `depth_L${l}`),
    ...lv.map((l) => `level_clock_ms_L${l}`),
    ...lv.map((l) => `charged_ms_L${l}`),
    ...lv.map((l) => `selections_L${l}`),
    ...lv.map((l) => `aging_boosts_L${l}`),
    'utilization',
    'submitted',
    'succeeded',
    'live',
    'config',
  ];
  const rows = points.map((p) => {
    // A row without its own config (a snapshot's history) borrows the export's only under the
    // same policy: another policy's row was taken under another config.
    const policy = p.policy ?? context.policy;
    const config =
      p.config ?? (policy === (context.config?.policy ?? policy) ? context.config : undefined);
    return [
      p.seq,
      round(p.tMs),
      policy ?? '',
      ...lv.map((l) => (has(p, l) ? (p.depth[l] ?? 0) : '')),
      ...lv.map((l) => (has(p, l) ? round(p.levelMs[l] ?? 0) : '')),
      ...lv.map((l) => (p.chargedMs === null || !has(p, l) ? '' : round(p.chargedMs[l] ?? 0))),
      ...lv.map((l) => (has(p, l) ? (p.selections[l] ?? 0) : '')),
      ...lv.map((l) => (p.agingBoosts === null || !has(p, l) ? '' : (p.agingBoosts[l] ?? 0))),
      round(p.utilization),
      p.submitted,
      p.succeeded,
      p.live,
      config === undefined ? '' : quote(JSON.stringify(config)),
    ].join(',');
  });
  return [header.join(','), ...rows].join('\n') + '\n';
}

/** A CSV field with its quotes doubled (RFC 4180), for values holding commas. */
function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
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
