// `schedlab serve --backend sim --seed N`: the live session over the simulator shows exactly what
// `schedlab run <preset> --seed N` reports for the same seed and config.
import { describe, expect, it } from 'vitest';
import { chargedShares } from '../../../shared/protocol.ts';
import { loadPreset } from '../../core/workload/presets/index.ts';
import { runWorkload } from '../report/run-workload.ts';
import { startLiveSession } from './live-session.ts';

const PRESET = 'interactive-vs-scan';
const SEED = 7;
const DURATION_MS = 8_000;

describe('a seeded sim session', () => {
  it('shows the charged level shares `schedlab run --json` reports for the same seed', async () => {
    const live = await startLiveSession({ backend: 'sim', seed: SEED, preset: PRESET });
    try {
      // Stepped here rather than paced on the wall clock: the same frames, without the waiting.
      live.session.stop();
      expect(live.session.executor.now()).toBe(0);
      const frame = live.session.advance(DURATION_MS).at(-1)!;
      expect(frame.backend).toBe('sim');
      expect(frame.speed).toBe(1);
      const { report } = await runWorkload(loadPreset(PRESET), {
        backend: 'sim',
        seed: SEED,
        durationMs: DURATION_MS,
      });
      expect(report.stoppedAtMs).toBe(DURATION_MS);
      expect(frame.config).toEqual(report.config);
      const shares = chargedShares(frame.levels);
      expect(shares).toEqual(report.levels.map((l) => l.share));
      expect(frame.levels.map((l) => Math.round(l.chargedNanos! / 1e3) / 1e3)).toEqual(
        report.levels.map((l) => l.chargedMs),
      );
      expect(frame.counters.quanta).toBe(report.counters.quanta);
      // Charged shares are not the dispatch-level split of the quanta (the old chart's "actual").
      const dispatched = report.levels.map((l) => l.scheduledMs);
      const total = dispatched.reduce((a, b) => a + b, 0);
      expect(dispatched.map((d) => d / total)).not.toEqual(shares);
    } finally {
      await live.close();
    }
  });

  it('counts the aging boosts per band `schedlab run --json` reports for the same seed', async () => {
    const preset = 'batch-service';
    const live = await startLiveSession({ backend: 'sim', seed: SEED, preset });
    try {
      live.session.stop();
      const frame = live.session.advance(DURATION_MS).at(-1)!;
      const { report } = await runWorkload(loadPreset(preset), {
        backend: 'sim',
        seed: SEED,
        durationMs: DURATION_MS,
      });
      const boosts = frame.levels.map((l) => l.agingBoosts);
      expect(boosts).toEqual(report.levels.map((l) => l.agingBoosts));
      // The preset's aging does boost its waiting low-priority work.
      expect(boosts.reduce((a, b) => a! + b!, 0)).toBeGreaterThan(0);
    } finally {
      await live.close();
    }
  });

  it('cancelAll leaves no live job of the preset and no new arrivals', async () => {
    const live = await startLiveSession({ backend: 'sim', seed: SEED, preset: PRESET });
    try {
      live.session.stop();
      live.session.advance(2_000);
      const result = await live.handleCommand({ type: 'cancelAll' });
      expect(result).toMatchObject({ ok: true });
      const before = live.session.executor.counters.submitted;
      const after = live.session.advance(3_000).at(-1)!;
      expect(after.counters.live).toBe(0);
      expect(after.counters.submitted).toBe(before);
    } finally {
      await live.close();
    }
  });

  it('another seed gives another run', async () => {
    const a = await startLiveSession({ backend: 'sim', seed: 1, preset: PRESET });
    const b = await startLiveSession({ backend: 'sim', seed: 2, preset: PRESET });
    try {
      a.session.stop();
      b.session.stop();
      const fa = a.session.advance(2_000).at(-1)!;
      const fb = b.session.advance(2_000).at(-1)!;
      expect(fa.counters.submitted).not.toBe(fb.counters.submitted);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
