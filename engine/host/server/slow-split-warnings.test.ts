// The `slow-split` warning on normal workloads: Trino's presets draw split times from heavy-tailed
// distributions, and a split in their normal tail is not a warning (docs/jobs.md "Warnings").
import { describe, expect, it } from 'vitest';
import { startLiveSession } from './live-session.ts';

const ENGINE_MS = 60_000;

describe('slow-split stays quiet on normal workloads', () => {
  for (const preset of ['trino-overloaded', 'trino-starve-slow', 'interactive-vs-scan']) {
    it(`${preset}: ${ENGINE_MS / 1000} s of simulated time flags no split as slow`, async () => {
      const live = await startLiveSession({ backend: 'sim', seed: 1, preset });
      try {
        // Stepped rather than paced on the wall clock: the same frames, without the waiting.
        live.session.stop();
        const flagged = new Set<string>();
        let frames = 0;
        for (const f of live.session.advance(ENGINE_MS)) {
          frames++;
          for (const w of f.warnings ?? []) {
            if (w.rule === 'slow-split') flagged.add(`job ${w.jobId}: ${w.message}`);
          }
        }
        expect(frames).toBeGreaterThan(100);
        expect([...flagged]).toEqual([]);
      } finally {
        await live.close();
      }
    }, 120_000);
  }
});
