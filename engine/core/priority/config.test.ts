// Every invalid knob is a coded INVALID_CONFIG error naming the field, and leaves the queue as it was.
import { describe, expect, it } from 'vitest';
import { PriorityPolicy } from './priority-policy.ts';
import { PriorityTaskQueue } from './priority-task-queue.ts';
import { retryPolicy } from './retry.ts';
import { schedLabErrorOf } from '../../../shared/testing.ts';

const BAD: [string, unknown][] = [
  ['aging', 'yes'],
  ['agingAfterNanos', -1],
  ['agingAfterNanos', Number.NaN],
  ['agingStepNanos', 0],
  ['agingStepNanos', Infinity],
  ['agingCap', -1],
  ['agingCap', 101],
  ['agingCap', 2.5],
  ['quotaBurst', -1],
  ['quotaBurst', 1.5],
  ['compactionMin', -1],
  ['maxQueued', 0],
  ['maxQueued', Infinity],
  ['agingIntervalNanos', 0],
  ['agingInterval', 1],
];

describe('PRIO configuration', () => {
  it.each(BAD)('PriorityPolicy rejects %s = %s, naming the field', (field, value) => {
    const err = schedLabErrorOf(() => new PriorityPolicy({ [field]: value }));
    expect(err.code).toBe('INVALID_CONFIG');
    expect(err.field).toBe(field);
    expect(err.message.startsWith(field)).toBe(true);
  });

  it.each(BAD.filter(([f]) => !f.startsWith('agingInterval')))(
    'PriorityTaskQueue rejects %s = %s, naming the field',
    (field, value) => {
      expect(schedLabErrorOf(() => new PriorityTaskQueue({ [field]: value })).field).toBe(field);
    },
  );

  it('a bad partial changes nothing, a good one applies live', () => {
    const policy = new PriorityPolicy({ agingCap: 7 });
    expect(schedLabErrorOf(() => policy.configure({ agingCap: 3, maxQueued: -2 })).field).toBe(
      'maxQueued',
    );
    expect(policy.config.agingCap).toBe(7);
    policy.configure({ agingCap: 3, agingIntervalNanos: 5e8 });
    expect(policy.config).toMatchObject({ agingCap: 3, agingIntervalNanos: 5e8, quotaBurst: 0 });
  });

  it.each([
    ['maxRetries', -1],
    ['maxRetries', 0.5],
    ['backoffBaseNanos', -1],
    ['backoffFactor', 0.5],
    ['backoffCapNanos', Number.NaN],
  ])('retryPolicy rejects %s = %s, naming the field', (field, value) => {
    const err = schedLabErrorOf(() => retryPolicy({ [field]: value }));
    expect(err.code).toBe('INVALID_CONFIG');
    expect(err.field).toBe(field);
  });
});
