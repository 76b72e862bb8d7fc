import { describe, expect, it } from 'vitest';
import { outcomeAt, outcomeIndex, QUANTUM_OUTCOMES } from './outcomes.ts';

describe('quantum outcomes', () => {
  it('index and name agree for every outcome, in the order spans store them', () => {
    QUANTUM_OUTCOMES.forEach((name, i) => {
      expect(outcomeIndex(name)).toBe(i);
      expect(outcomeAt(i)).toBe(name);
    });
    expect(outcomeAt(99)).toBe('yielded');
  });
});
