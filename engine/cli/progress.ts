/**
 * Progress on stderr while a run goes, never on stdout (that is the report's). On a terminal one
 * line is redrawn in place, at most 10 times a second; elsewhere (a pipe, a log file) escape codes
 * would be noise, so each update is a plain line of its own, about once a second.
 */
import type { RunProgress } from '../host/report/run-workload.ts';
import type { CliIo } from './io.ts';

export type ProgressMode = 'tty' | 'lines';

export interface Progress {
  update(p: RunProgress): void;
  clear(): void;
}

const PERIOD_MS: Record<ProgressMode, number> = { tty: 100, lines: 1000 };

export function progressText(p: RunProgress): string {
  const of = p.durationMs === null ? '' : ` / ${(p.durationMs / 1000).toFixed(0)} s`;
  const t = `t ${(p.elapsedMs / 1000).toFixed(1)} s${of}`;
  if (p.nodes !== undefined)
    return `${t} · nodes done ${p.nodes.done} / ${p.nodes.total} · quanta ${p.quanta}`;
  return `${t} · jobs done ${p.jobsEnded} · live ${p.jobsLive} · quanta ${p.quanta}`;
}

/** `now` is wall-clock ms (injected so tests need not sleep). */
export function progressLine(
  io: CliIo,
  mode: ProgressMode,
  now: () => number = () => performance.now(),
): Progress {
  let last = -Infinity;
  let drawn = false;
  /** The newest update not yet written: a log of lines should end on where the run ended. */
  let unwritten: RunProgress | null = null;
  const write = (p: RunProgress) => {
    if (mode === 'tty') io.err(`\r\x1b[2K  ${progressText(p)}`);
    else io.err(`progress: ${progressText(p)}\n`);
    drawn = true;
    unwritten = null;
  };
  return {
    update(p) {
      const t = now();
      if (t - last < PERIOD_MS[mode]) {
        unwritten = p;
        return;
      }
      last = t;
      write(p);
    },
    clear() {
      if (mode === 'tty') {
        if (drawn) io.err('\r\x1b[2K');
      } else if (unwritten !== null) write(unwritten);
    },
  };
}
