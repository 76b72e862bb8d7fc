/** A one-line progress display on stderr, redrawn at most 10 times a second of wall time. */
import type { RunProgress } from '../host/report/run-workload.ts';
import type { CliIo } from './io.ts';

export function progressLine(io: CliIo): { update(p: RunProgress): void; clear(): void } {
  let last = 0;
  let drawn = false;
  return {
    update(p) {
      const now = performance.now();
      if (now - last < 100) return;
      last = now;
      const of = p.durationMs === null ? '' : ` / ${(p.durationMs / 1000).toFixed(0)} s`;
      io.err(
        `\r\x1b[2K  t ${(p.elapsedMs / 1000).toFixed(1)} s${of} · jobs done ${p.jobsEnded} · live ${p.jobsLive} · quanta ${p.quanta}`,
      );
      drawn = true;
    },
    clear() {
      if (drawn) io.err('\r\x1b[2K');
    },
  };
}
