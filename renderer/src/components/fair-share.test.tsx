import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import type { FairGroups } from '../../../shared/protocol.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { FairShare } from './fair-share.tsx';

function render(fairGroups: FairGroups): string {
  const telemetry = new Telemetry();
  telemetry.ingestFrame(syntheticFrame({ seq: 1, timeMs: 1000, fairGroups }));
  return renderStatic(<FairShare unit="tenant" />, { telemetry });
}

const row = (label: string, serviceNanos: number, weight?: number) => ({
  key: `tenant-${label}`,
  kind: 'tenant' as const,
  label,
  cls: 'x',
  serviceNanos,
  ...(weight === undefined ? {} : { weight }),
});

describe('the fair share panel', () => {
  it('says what its Jain index compares: equal service, or service in proportion to weight', () => {
    const base = {
      unit: 'tenant' as const,
      count: 2,
      totalNanos: 400,
      others: { groups: 0, serviceNanos: 0 },
      byClass: [],
      jain: 1,
    };
    const even = render({ ...base, groups: [row('a', 200), row('b', 200)] });
    expect(even).toContain('equal service for the time they had work');
    const weighted = render({
      ...base,
      groups: [row('gold', 300, 3), row('free', 100)],
      weighted: 1,
    });
    expect(weighted).toContain('service in proportion to weight for the time they had work');
    expect(weighted).toContain('gold ×3=0.7500');
  });

  it.each([
    ['two', ['acme', 'globex']],
    ['three', ['acme', 'globex', 'initech']],
  ])('names every bar with its group, %s groups', (_, labels) => {
    const groups = labels.map((l, i) => row(l, 100 * (i + 1)));
    const html = render({
      unit: 'tenant',
      count: groups.length,
      totalNanos: groups.reduce((a, g) => a + g.serviceNanos, 0),
      groups,
      others: { groups: 0, serviceNanos: 0 },
      byClass: [],
      jain: 0.9,
    });
    // What the page shows (the text of the bars' element, not its data attributes).
    const bars = /data-testid="fair-groups".*?>(.*)$/s.exec(html)?.[1] ?? '';
    const text = bars.replace(/<[^>]*>/g, ' ');
    for (const label of labels) expect(text).toContain(label);
  });
});
