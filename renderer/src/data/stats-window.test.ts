import { describe, expect, it } from 'vitest';
import { alarmsToShow, figuresAgeText, formatAlarm, statsWindowText } from './stats-window.ts';

describe('latency and wait tables say their window', () => {
  it('names the window from statsSinceNanos, or says the host does not report one', () => {
    expect(statsWindowText({ timeNanos: 90e9, statsSinceNanos: 30e9 })).toBe('over the last 1:00');
    expect(statsWindowText({ timeNanos: 90e9, statsSinceNanos: 78e9 })).toBe('over the last 12 s');
    expect(statsWindowText({ timeNanos: 90e9 })).toBe('window not reported by this host');
  });
});

describe('alarms', () => {
  it('write durations the way the rest of the UI does', () => {
    expect(formatAlarm('p0-19 p95 wait 17432.575 ms exceeds 1000 ms')).toBe(
      'p0-19 p95 wait 17 s exceeds 1.0 s',
    );
    expect(formatAlarm('a split has waited 125000 ms (threshold 120000 ms)')).toBe(
      'a split has waited 2:05 (threshold 2:00)',
    );
  });

  it('clear once the frames that raised them stop: disconnected, or no recent frame', () => {
    const raised = [
      { kind: 'urgent-wait' as const, message: 'p0-19 p95 wait 2500 ms exceeds 1000 ms' },
    ];
    expect(alarmsToShow(raised, true, 100)).toEqual([
      { kind: 'urgent-wait', message: 'p0-19 p95 wait 2.5 s exceeds 1.0 s' },
    ]);
    expect(alarmsToShow(raised, false, 100)).toEqual([]);
    expect(alarmsToShow(raised, true, 60_000)).toEqual([]);
    expect(alarmsToShow(undefined, true, 100)).toEqual([]);
  });
});

describe('the figures over every live run', () => {
  it('say how old they are once a spread pass carries them past a second, and nothing while fresh', () => {
    const ms = 1e6;
    expect(figuresAgeText({ timeNanos: 5000 * ms, figuresAtNanos: 4500 * ms })).toBeNull();
    expect(figuresAgeText({ timeNanos: 5000 * ms, figuresAtNanos: 1800 * ms })).toBe(
      'as of 3.2 s ago',
    );
    expect(figuresAgeText({ timeNanos: 5000 * ms })).toBeNull();
  });
});
