import { describe, expect, it } from 'vitest';
import { formatMs } from './format.ts';

describe('formatMs, how every duration reads', () => {
  it('writes minutes as m:ss, tenths only off a whole second, carrying into the minute', () => {
    expect(formatMs(125_000)).toBe('2:05');
    expect(formatMs(125_400)).toBe('2:05.4');
    expect(formatMs(60_000)).toBe('1:00');
    expect(formatMs(-61_500)).toBe('-1:01.5');
    // Rounding up to the next minute: these read 1:60, 1:60.0 and 2:60.0.
    expect(formatMs(119_999.6)).toBe('2:00');
    expect(formatMs(119_960)).toBe('2:00.0');
    expect(formatMs(179_970)).toBe('3:00.0');
  });

  it('writes shorter times in s, ms and µs', () => {
    expect(formatMs(0)).toBe('0');
    expect(formatMs(12_345)).toBe('12 s');
    expect(formatMs(1_500)).toBe('1.5 s');
    expect(formatMs(250)).toBe('250 ms');
    expect(formatMs(2.5)).toBe('2.5 ms');
    expect(formatMs(0.05)).toBe('50 µs');
  });
});
