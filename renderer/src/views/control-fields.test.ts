import { describe, expect, it } from 'vitest';
import { engineConfigShape } from '../../../shared/config.ts';
import { GROUPS } from './control-fields.ts';

const numberFields = GROUPS.flatMap((g) => g.fields).filter((f) => f.kind === 'number');

describe('Controls ranges', () => {
  it.each(numberFields.map((f) => [f.key, f] as const))(
    '%s offers exactly what the engine takes: both ends accepted, a step below refused',
    (key, f) => {
      const schema = engineConfigShape[key as keyof typeof engineConfigShape];
      expect(schema.safeParse(f.min).success).toBe(true);
      expect(schema.safeParse(f.max).success).toBe(true);
      expect(schema.safeParse(f.max! + f.step!).success).toBe(false);
      expect(schema.safeParse(f.min! - f.step!).success).toBe(false);
    },
  );

  it('the multiplier slider starts above 1, which the engine refuses', () => {
    const m = numberFields.find((f) => f.key === 'levelTimeMultiplier')!;
    expect(m.min).toBeCloseTo(1.1);
    expect(m.max).toBe(16);
  });
});
