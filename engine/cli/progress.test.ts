import { describe, expect, it } from 'vitest';
import type { RunProgress } from '../host/report/run-workload.ts';
import { memoryIo } from './io.ts';
import { progressLine, progressText } from './progress.ts';

const at = (elapsedMs: number): RunProgress => ({
  elapsedMs,
  durationMs: null,
  jobsEnded: elapsedMs / 100,
  jobsLive: 1,
  quanta: elapsedMs,
});

/** Feeds updates at the given wall-clock times (ms), one simulated second of progress each. */
function feed(mode: 'tty' | 'lines', wall: number[]): string {
  const io = memoryIo(mode === 'tty');
  let now = 0;
  const progress = progressLine(io, mode, () => now);
  wall.forEach((t, i) => {
    now = t;
    progress.update(at((i + 1) * 1000));
  });
  progress.clear();
  return io.text.err;
}

describe('progress display', () => {
  it('off a terminal writes plain lines, about one a second, ending on the last update', () => {
    const err = feed('lines', [0, 300, 900, 1000, 1500, 2600, 2700]);
    expect(err).not.toContain('\x1b');
    expect(err).not.toContain('\r');
    expect(err.split('\n')).toEqual([
      'progress: t 1.0 s · jobs done 10 · live 1 · quanta 1000',
      'progress: t 4.0 s · jobs done 40 · live 1 · quanta 4000',
      'progress: t 6.0 s · jobs done 60 · live 1 · quanta 6000',
      'progress: t 7.0 s · jobs done 70 · live 1 · quanta 7000',
      '',
    ]);
  });

  it('writes no final line when the last update was already written', () => {
    expect(feed('lines', [0, 1200]).split('\n')).toHaveLength(3);
  });

  it('a graph run says how many nodes are done of how many', () => {
    const p: RunProgress = {
      elapsedMs: 1500,
      durationMs: null,
      jobsEnded: 1,
      jobsLive: 1,
      quanta: 900,
      nodes: { done: 800, total: 1311 },
    };
    expect(progressText(p)).toBe('t 1.5 s · nodes done 800 / 1311 · quanta 900');
  });

  it('on a terminal redraws one line in place and erases it at the end', () => {
    const err = feed('tty', [0, 50, 150]);
    expect(err).toBe(
      '\r\x1b[2K  t 1.0 s · jobs done 10 · live 1 · quanta 1000' +
        '\r\x1b[2K  t 3.0 s · jobs done 30 · live 1 · quanta 3000' +
        '\r\x1b[2K',
    );
  });
});
