import { describe, expect, it } from 'vitest';
import { checkField } from './validate.ts';

describe('client-side config validation', () => {
  it('accepts a multiplier in range and returns the patch to send', () => {
    expect(checkField('levelTimeMultiplier', 3)).toEqual({
      ok: true,
      patch: { levelTimeMultiplier: 3 },
    });
  });

  it('refuses a multiplier of 1 with a message naming the field', () => {
    const r = checkField('levelTimeMultiplier', 1);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('levelTimeMultiplier must be > 1');
  });

  it('names the offending threshold by index, as the engine and the CLI do', () => {
    const r = checkField('levelThresholdsMs', [0, 50, 40, 100, 200]);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('levelThresholdsMs[2] must be > the previous threshold');
  });

  it('says what a number field needs in the engine’s words', () => {
    expect(checkField('workers', 300)).toMatchObject({ message: 'workers must be <= 256' });
    expect(checkField('quantumMs', Number.NaN)).toMatchObject({
      message: 'quantumMs must be a number',
    });
  });

  it('checks graph-run choices with the graph schema; null lets the document decide', () => {
    expect(checkField('graphPolicy', 'critical-path')).toEqual({
      ok: true,
      patch: { graphPolicy: 'critical-path' },
    });
    expect(checkField('executor', null)).toEqual({ ok: true, patch: { executor: null } });
    expect(checkField('graphPolicy', 'random').ok).toBe(false);
  });

  it('refuses a field the engine does not know', () => {
    expect(checkField('noSuchKnob', 1)).toMatchObject({
      ok: false,
      field: 'noSuchKnob',
      message: 'config has unknown field noSuchKnob',
    });
  });
});
