// A class none of whose jobs finished in one run has no latency there: its cell is a dash, with no
// figure behind it (React warned of a NaN `data-value`, and specs read "NaN").
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../shared/config.ts';
import type { CompareReportRow } from '../../../shared/protocol.ts';
import { renderStatic } from '../testing.tsx';
import { CompareTable } from './compare-results.tsx';

function report(label: string, succeeded: number): CompareReportRow {
  const pcts = { p50: 5, p95: 9, p99: 12, max: 15, mean: 6 };
  return {
    label,
    config: DEFAULT_ENGINE_CONFIG,
    makespanMs: 30_000,
    stoppedAtMs: 30_000,
    classes: {
      scan: { jobs: 4, succeeded, unfinished: 4 - succeeded, latencyMs: pcts, waitMs: pcts },
    },
    levelShares: [],
    utilization: 0.9,
    jain: 0.8,
    quanta: 100,
  };
}

/** The `<td>`s of the table row `key`. */
function cells(html: string, key: string): string[] {
  const row = html.slice(html.indexOf(`data-testid="compare-row-${key}"`));
  return [...row.slice(0, row.indexOf('</tr>')).matchAll(/<td[^>]*>[^<]*<\/td>/g)].map((m) => m[0]);
}

describe('the comparison table', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows a dash with no figure where a run finished no job of the class', () => {
    const warn = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = {
      workload: 'w',
      seed: 1,
      durationMs: 30_000,
      reports: [report('a', 2), report('b', 0)],
    };
    const html = renderStatic(<CompareTable result={result} />);
    const [name, a, b] = cells(html, 'scan-p95');
    expect(name).toContain('scan latency p95');
    expect(a).toContain('data-value="9"');
    expect(b).toBe('<td class="num">–</td>');
    expect(html).not.toContain('NaN');
    expect(warn).not.toHaveBeenCalled();
  });
});
