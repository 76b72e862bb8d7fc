import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG, parseEngineConfig } from '../../../../shared/config.ts';
import { loadPreset, PRESET_NAMES } from './index.ts';

describe('presets', () => {
  it('every preset is a valid workload', () => {
    for (const name of PRESET_NAMES) expect(loadPreset(name).name).toBe(name);
  });

  it("Trino presets use Trino's simulator set-up and a 500 ms controller", () => {
    for (const name of PRESET_NAMES.filter((n) => n.startsWith('trino-'))) {
      const w = loadPreset(name);
      expect(w.config).toMatchObject({
        workers: 36,
        minDrivers: 72,
        guaranteedPerTask: 3,
        maxDriversPerTask: 8,
        levelTimeMultiplier: 2,
      });
      expect(w.trino?.controllerIntervalMs).toBe(500);
    }
    expect(loadPreset('trino-overloaded').durationMs).toBe(30_000 + 20 * 60_000);
    expect(
      loadPreset('trino-misbehaving-quanta').trino?.timeline.filter((s) => s.action === 'clear'),
    ).toHaveLength(120);
  });

  it("Trino presets remove a task as Trino's removeTask does (finish-quantum); others keep the cooperative default", () => {
    expect(DEFAULT_ENGINE_CONFIG.cancelRunning).toBe('cooperative');
    const trino = PRESET_NAMES.filter((n) => n.startsWith('trino-'));
    expect(trino.length).toBeGreaterThan(0);
    for (const name of PRESET_NAMES) {
      const w = loadPreset(name);
      const expected = trino.includes(name) ? 'finish-quantum' : 'cooperative';
      // The config the engine runs with: the preset's settings over the defaults.
      expect({ name, cancelRunning: parseEngineConfig(w.config).cancelRunning }).toEqual({
        name,
        cancelRunning: expected,
      });
    }
  });

  it('an unknown preset is a coded error naming the alternatives', () => {
    expect(() => loadPreset('nope')).toThrow(/preset "nope" is not one of interactive-vs-scan/);
  });
});
