import { describe, expect, it } from 'vitest';
import { BAND_LABELS, bandOf } from '../../../shared/lib/priority-bands.ts';
import type { JobRow, Percentiles } from '../../../shared/protocol.ts';
import { selectionRates } from './derive.ts';
import { agingText, bandWaits, fairGroupShares, groupShares, policyUnits } from './policy-units.ts';
import { seriesColor } from './palette.ts';
import type { FramePoint } from './telemetry.ts';

function pt(
  tMs: number,
  policy: FramePoint['policy'],
  labels: string[],
  sel: number[],
): FramePoint {
  return {
    seq: tMs,
    tMs,
    depth: labels.map(() => 0),
    levelMs: labels.map(() => 0),
    selections: sel,
    utilization: 1,
    succeeded: 0,
    submitted: 0,
    live: 0,
    policy,
    labels,
    chargedMs: null,
    agingBoosts: null,
    oldestWaitMs: null,
    samples: null,
  };
}

describe('each policy counts in its own unit', () => {
  it('panel titles name levels, priority bands, fair groups or the FIFO queue', () => {
    expect(policyUnits('mlfq', 'task').shareTitle).toBe('Charged time per level');
    expect(policyUnits('priority', 'task').depthTitle).toBe('Queue depth per priority band');
    expect(policyUnits('fair', 'query').shareTitle).toBe('Service share per job');
    expect(policyUnits('fifo', 'task').shareTitle).toBe('Queue age');
  });

  it('under priority, selections are per band p0-19 … p80-100, not L0–L4', () => {
    const rows = selectionRates([
      pt(0, 'priority', [...BAND_LABELS], [0, 0, 0, 0, 0]),
      pt(1000, 'priority', [...BAND_LABELS], [10, 0, 4, 0, 0]),
    ]);
    expect(rows.map((r) => r.level)).toEqual(['p0-19', 'p20-39', 'p40-59', 'p60-79', 'p80-100']);
    expect(rows[0]!.rate).toBe(10);
    expect(rows[2]!.rate).toBe(4);
  });

  it('one band mapping: 0–19 → p0-19, 100 → p80-100, the same colour as level of that index', () => {
    expect([0, 19, 20, 79, 80, 100].map(bandOf)).toEqual([0, 0, 1, 3, 4, 4]);
    expect(BAND_LABELS).toEqual(['p0-19', 'p20-39', 'p40-59', 'p60-79', 'p80-100']);
    expect(seriesColor('p40-59', 0)).toBe(seriesColor('L2', 0));
  });

  it('per-band wait p95 in band order; a band without samples shows none', () => {
    const p = (p95: number): Percentiles => ({
      count: 3,
      p50: 1,
      p95,
      p99: p95,
      max: p95,
      mean: 1,
    });
    const rows = bandWaits({ 'p80-100': p(900), 'p0-19': p(12) });
    expect(rows.map((r) => r.p95)).toEqual([12, null, null, null, 900]);
  });

  it('fair: each live job’s share of the service so far; ended jobs are out', () => {
    const job = (id: number, state: JobRow['state'], ms: number): JobRow => ({
      id,
      class: 'c',
      state,
      basePriority: 50,
      splits: 1,
      splitsDone: 0,
      scheduledNanos: ms * 1e6,
      submitNanos: 0,
      endNanos: null,
    });
    const rows = groupShares([
      job(1, 'running', 300),
      job(2, 'running', 100),
      job(3, 'succeeded', 5000),
    ]);
    expect(rows).toEqual([
      { label: '#1 c', share: 0.75 },
      { label: '#2 c', share: 0.25 },
    ]);
  });

  it('aging in one line, durations formatted', () => {
    const c = { aging: true, agingAfterMs: 60_000, agingStepMs: 30_000, agingCap: 20 };
    expect(agingText(c, (ms) => `${ms / 1000} s`)).toBe(
      'aging on: after 60 s waiting, one priority more urgent per 30 s, at most 20',
    );
  });
});

describe('fair group shares', () => {
  it('name a weighted tenant with its weight; shares are of all service', () => {
    const rows = fairGroupShares({
      unit: 'tenant',
      count: 3,
      totalNanos: 100,
      groups: [
        {
          key: 'tenant-gold',
          kind: 'tenant',
          label: 'gold',
          cls: 'x',
          serviceNanos: 60,
          weight: 3,
        },
        { key: 'tenant-free', kind: 'tenant', label: 'free', cls: 'x', serviceNanos: 20 },
      ],
      others: { groups: 1, serviceNanos: 20 },
      byClass: [],
      jain: 1,
    });
    expect(rows).toEqual([
      { label: 'gold ×3', share: 0.6 },
      { label: 'free', share: 0.2 },
      { label: '1 others', share: 0.2 },
    ]);
  });
});
