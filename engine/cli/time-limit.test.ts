// --time-limit bounds the whole command: reading, checking and compiling the workload count, not
// only the run that follows (a 200 MB graph took its ~10 s to load outside any limit).
import { describe, expect, it } from 'vitest';
import { main } from './cli.ts';
import { memoryIo } from './io.ts';
import { tmpFile, TINY_WORKLOAD } from './cli-testing.ts';

/** A wall clock that reads `start` at the command's first look, and an hour later after that. */
function clockAfterFirstLook(): () => number {
  let looks = 0;
  return () => (looks++ === 0 ? 0 : 3_600_000);
}

describe('--time-limit counts from the start of the command', () => {
  it('time spent before the run starts (loading, checking) counts against the limit', async () => {
    const file = tmpFile('tiny.json', { ...TINY_WORKLOAD, durationMs: 1000 });
    const io = { ...memoryIo(), now: clockAfterFirstLook() };
    const code = await main(['run', file, '--time-limit', '10m', '--json'], io);
    expect(code).toBe(1);
    expect(JSON.parse(io.text.out)).toMatchObject({
      error: { code: 'TIME_LIMIT', field: '--time-limit' },
    });
    expect(io.text.err).toMatch(/passed its time limit of 10m/);
  });

  it('a run within its limit is not stopped', async () => {
    const file = tmpFile('tiny.json', TINY_WORKLOAD);
    const io = { ...memoryIo(), now: () => 0 };
    expect(await main(['run', file, '--time-limit', '10m'], io)).toBe(0);
  });
});
