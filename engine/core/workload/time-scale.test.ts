import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG, engineConfigShape } from '../../../shared/config.ts';
import { TIMED_SETTINGS, scaleConfigTimes } from './time-scale.ts';

describe('timeScale on engine settings', () => {
  it('knows every time setting of the engine (each one named …Ms)', () => {
    const timed = Object.keys(engineConfigShape).filter((k) => k.endsWith('Ms'));
    expect([...TIMED_SETTINGS].sort()).toEqual(timed.sort());
  });

  it('multiplies the times, rounded to whole ns, and leaves every other setting alone', () => {
    const c = scaleConfigTimes(DEFAULT_ENGINE_CONFIG, 0.1);
    expect(c.quantumMs).toBe(100);
    expect(c.levelThresholdsMs).toEqual([0, 100, 1000, 6000, 30_000]);
    expect(c.levelContributionCapMs).toBe(3000);
    expect(c.agingAfterMs).toBe(6000);
    expect(c.retryBackoffMaxMs).toBe(1000);
    expect(c.workers).toBe(DEFAULT_ENGINE_CONFIG.workers);
    expect(c.levelTimeMultiplier).toBe(2);
    expect(c.agingCap).toBe(DEFAULT_ENGINE_CONFIG.agingCap);
    expect(scaleConfigTimes({ quantumMs: 3 }, 1 / 3)).toEqual({ quantumMs: 1 });
    expect(scaleConfigTimes(DEFAULT_ENGINE_CONFIG, 1)).toBe(DEFAULT_ENGINE_CONFIG);
  });
});
