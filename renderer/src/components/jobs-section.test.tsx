import { describe, expect, it } from 'vitest';
import { renderStatic } from '../testing.tsx';
import type { JobDetail, JobWarning } from '../../../shared/protocol.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { JobDetailBody } from './job-detail.tsx';
import { JobsSection } from './jobs-section.tsx';

const MS = 1e6;

function render(
  node: React.ReactNode,
  warnings: JobWarning[],
  selectedJob: number | null,
  figuresAtNanos?: number,
) {
  const telemetry = new Telemetry();
  const frame = { ...syntheticFrame({ seq: 1, timeMs: 5000 }), warnings, warningsMore: 3 };
  telemetry.ingestFrame(figuresAtNanos === undefined ? frame : { ...frame, figuresAtNanos });
  return renderStatic(node, { state: { policy: 'mlfq', selectedJob }, telemetry });
}

describe('the Live view’s jobs section', () => {
  const starving: JobWarning = {
    jobId: 5,
    class: 'scan',
    rule: 'starving',
    splitId: 9,
    message: 'split 9 has waited 2:05 (bound 2:00)',
  };

  it('lists each warning with its rule and message, counts the rest, marks the selected job', () => {
    const html = render(<JobsSection />, [starving], 5);
    expect(html).toContain('data-testid="warnings"');
    expect(html).toContain('data-count="4"');
    expect(html).toContain('data-testid="warning-5-starving"');
    expect(html).toContain('split 9 has waited 2:05 (bound 2:00)');
    expect(html).toContain('and 3 more');
    expect(html).toMatch(/class="warning-row selected" data-testid="warning-5-starving"/);
    expect(html).toContain('data-testid="job-search"');
    expect(html).toContain('data-testid="job-detail"');
  });

  it('says which rules it applies when no job looks wrong, and shows no detail unselected', () => {
    const html = render(<JobsSection />, [], null);
    expect(html).toContain('No job looks wrong now');
    for (const rule of ['starving', 'overrun', 'slow-split', 'retries']) {
      expect(html).toContain(`(${rule})`);
    }
    expect(html).not.toContain('data-testid="job-detail"');
  });

  it('says how old its warnings are when a spread pass over many live runs carries them', () => {
    expect(render(<JobsSection />, [starving], null, 4_900 * MS)).toContain(
      'live jobs that look wrong now',
    );
    const html = render(<JobsSection />, [starving], null, 1_800 * MS);
    expect(html).toContain('live jobs that look wrong as of 3.2 s ago');
  });
});

describe('the job detail', () => {
  const detail: JobDetail = {
    job: {
      id: 5,
      class: 'scan',
      state: 'failed',
      basePriority: 50,
      splits: 1,
      splitsDone: 1,
      scheduledNanos: 20 * MS,
      submitNanos: 0,
      endNanos: 100 * MS,
      error: 'split 9: worker lost',
      errorCode: 'WORKER_LOST',
    },
    splits: [
      {
        splitId: 9,
        taskId: 1,
        state: 'failed',
        segments: [
          { kind: 'waiting', startNanos: 0, endNanos: 10 * MS },
          { kind: 'running', startNanos: 10 * MS, endNanos: 30 * MS, worker: 0, level: 0 },
          { kind: 'backoff', startNanos: 30 * MS, endNanos: 50 * MS },
        ],
        segmentsCut: 0,
        waitNanos: 10 * MS,
        scheduledNanos: 20 * MS,
        quanta: 1,
        retries: 1,
        errorCode: 'WORKER_LOST',
      },
    ],
    splitsMore: 0,
    changes: [{ timeNanos: 40 * MS, splitId: 9, kind: 'level', from: 0, to: 1 }],
    changesCut: 0,
    complete: true,
    trailSinceNanos: 0,
    warnings: [],
  };

  it('shows the outcome with its code, each split’s stretches and the priority changes', () => {
    const html = render(<JobDetailBody d={detail} now={100 * MS} policy="mlfq" />, [], 5);
    expect(html).toContain('WORKER_LOST: split 9: worker lost');
    expect(html).toContain('data-testid="job-detail-split-9"');
    expect(html.match(/class="seg seg-/g)).toHaveLength(3);
    expect(html).toContain('title="backoff 20.0 ms"');
    expect(html).toContain('1 retries');
    expect(html).toContain('split 9 demoted L0 → L1');
  });
});
