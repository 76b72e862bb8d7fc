import { describe, expect, it } from 'vitest';
import type { CompareReportRow } from '../../../shared/protocol.ts';
import { DEFAULT_ENGINE_CONFIG } from '../../../shared/config.ts';
import {
  DEFAULT_FORMS,
  bestCell,
  buildCompare,
  fitForms,
  isGraphWorkload,
  nextPolicy,
  p95ChartRows,
  policyChoices,
  tableRows,
} from './compare-rows.ts';

const preset = { kind: 'preset', preset: 'interactive-vs-scan' } as const;

function report(
  label: string,
  p95: number,
  extra: Partial<CompareReportRow> = {},
): CompareReportRow {
  const pcts = { p50: p95 / 2, p95, p99: p95 * 1.2, max: p95 * 1.5, mean: p95 / 2 };
  return {
    label,
    config: DEFAULT_ENGINE_CONFIG,
    makespanMs: 30_000,
    stoppedAtMs: 30_000,
    classes: {
      interactive: { jobs: 10, succeeded: 9, unfinished: 1, latencyMs: pcts, waitMs: pcts },
    },
    levelShares: [
      { level: 0, label: 'L0', share: 0.75 },
      { level: 1, label: 'L1', share: 0.25 },
    ],
    utilization: 0.9,
    jain: 0.8,
    quanta: 100,
    ...extra,
  };
}

describe('buildCompare', () => {
  it('sends only the fields typed, with labels and numbers parsed', () => {
    const forms = [
      { ...DEFAULT_FORMS[0]!, label: ' fast ', quantumMs: '5' },
      { ...DEFAULT_FORMS[1]!, workers: '2' },
    ];
    const r = buildCompare(preset, forms, 30_000, '7');
    expect(r).toEqual({
      ok: true,
      command: {
        type: 'compare',
        preset: 'interactive-vs-scan',
        durationMs: 30_000,
        seed: 7,
        configs: [
          { policy: 'mlfq', label: 'fast', quantumMs: 5 },
          { policy: 'fifo', workers: 2 },
        ],
      },
    });
  });

  it('names the field of a bad value before anything is sent', () => {
    const bad = [DEFAULT_FORMS[0]!, { ...DEFAULT_FORMS[1]!, levelTimeMultiplier: '1' }];
    expect(buildCompare(preset, bad, 30_000, '')).toMatchObject({
      ok: false,
      field: 'configs[1].levelTimeMultiplier',
      message: 'configs[1].levelTimeMultiplier must be > 1',
    });
    const text = [{ ...DEFAULT_FORMS[0]!, workers: 'two' }, DEFAULT_FORMS[1]!];
    expect(buildCompare(preset, text, 30_000, '')).toMatchObject({
      field: 'configs[0].workers',
      message: 'configs[0].workers must be a number',
    });
    expect(buildCompare(preset, [DEFAULT_FORMS[0]!], 30_000, '')).toMatchObject({
      field: 'configs',
    });
  });

  it('sends a workload document instead of a preset', () => {
    const r = buildCompare({ kind: 'workload', doc: { name: 'w' } }, DEFAULT_FORMS, 10_000, '');
    expect(r.ok && r.command.workload).toEqual({ name: 'w' });
    expect(r.ok && r.command.preset).toBeUndefined();
  });
});

describe('table and chart rows', () => {
  const reports = [report('mlfq', 100), report('fifo', 900, { utilization: 0.95 })];

  it('one cell per config, the best one marked where a direction exists', () => {
    const rows = tableRows(reports);
    const p95 = rows.find((r) => r.key === 'interactive-p95')!;
    expect(p95.values).toEqual([100, 900]);
    expect(p95.cells).toEqual(['100.0 ms', '900.0 ms']);
    expect(bestCell(p95)).toBe(0);
    expect(bestCell(rows.find((r) => r.key === 'utilization')!)).toBe(1);
    // Equal figures: no winner.
    expect(bestCell(rows.find((r) => r.key === 'jain')!)).toBe(-1);
    expect(rows.find((r) => r.key === 'L0-share')!.cells).toEqual(['75.0 %', '75.0 %']);
  });

  it('names a queue row by what it is in each run: mlfq’s L0 beside fifo’s one queue', () => {
    // Before: one row titled "L0" for both, as if fifo's whole queue were a level.
    const fifo = {
      ...reports[1]!,
      levelShares: [{ level: 0, label: 'fifo', share: 1 }],
    };
    const rows = tableRows([reports[0]!, fifo]);
    const share = rows.find((r) => r.key === 'L0-share')!;
    expect(share.name).toBe('L0 / fifo charged share');
    expect(share.cells).toEqual(['75.0 %', '100.0 %']);
    expect(tableRows(reports).find((r) => r.key === 'L0-share')!.name).toBe('L0 charged share');
  });

  it('a class one run lacks reads as a dash, not as zero', () => {
    const other = report('fair', 50, { classes: {} });
    const rows = tableRows([reports[0]!, other]);
    expect(rows.find((r) => r.key === 'interactive-p95')!.cells).toEqual(['100.0 ms', '–']);
  });

  it('chart: one row per class, one key per config', () => {
    expect(p95ChartRows(reports)).toEqual([{ cls: 'interactive', c0: 100, c1: 900 }]);
  });

  it('a class with no finished job has no latency (dash, no bar), yet its jobs are counted', () => {
    const none = report('fifo', 0);
    none.classes['interactive'] = { ...none.classes['interactive']!, succeeded: 0 };
    const rows = tableRows([reports[0]!, none]);
    expect(rows.find((r) => r.key === 'interactive-p95')!.cells).toEqual(['100.0 ms', '–']);
    expect(rows.find((r) => r.key === 'interactive-done')!.cells).toEqual(['9 / 10', '0 / 10']);
    expect(p95ChartRows([reports[0]!, none])).toEqual([{ cls: 'interactive', c0: 100, c1: null }]);
  });
});

describe('compare columns follow the workload kind', () => {
  it('a graph workload offers the ready-queue policies, a split-queue one the queue policies', () => {
    expect(policyChoices(true)).toEqual([
      'fifo',
      'lifo',
      'most-successors',
      'sjf',
      'ljf',
      'critical-path',
    ]);
    expect(policyChoices(false)).toEqual(['mlfq', 'priority', 'fifo', 'fair']);
  });

  it('switching to a graph resets columns it cannot run to fifo vs critical-path, and back', () => {
    const typed = [
      { ...DEFAULT_FORMS[0]!, workers: '8' },
      DEFAULT_FORMS[1]!,
      { ...DEFAULT_FORMS[0]!, policy: 'fair' as const },
    ];
    const graph = fitForms(typed, true);
    expect(graph.map((f) => f.policy)).toEqual(['fifo', 'critical-path', 'lifo']);
    expect(graph[0]!.workers).toBe('8'); // other fields are kept
    expect(fitForms(graph, false).map((f) => f.policy)).toEqual(['mlfq', 'fifo', 'priority']);
    // Columns that already fit are left alone.
    expect(fitForms(DEFAULT_FORMS, false)).toEqual(DEFAULT_FORMS);
  });

  it('a new column takes a policy no column has yet; a workload file is a graph when it holds one', () => {
    expect(nextPolicy(DEFAULT_FORMS, false)).toBe('priority');
    expect(nextPolicy(fitForms(DEFAULT_FORMS, true), true)).toBe('lifo');
    expect(isGraphWorkload({ name: 'g', graph: { generator: 'chain', length: 3 } })).toBe(true);
    expect(isGraphWorkload({ nodes: [{ id: 'a' }], edges: [] })).toBe(true);
    expect(isGraphWorkload({ name: 'w', classes: [] })).toBe(false);
  });
});
