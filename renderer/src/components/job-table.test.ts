import { createElement, type FunctionComponent } from 'react';
import { describe, expect, it } from 'vitest';
import type { CommandResult, FindJobsResult, JobRow } from '../../../shared/protocol.ts';
import { syntheticFrame } from '../data/synthetic-frame.ts';
import { Telemetry } from '../data/telemetry.ts';
import { READ_ONLY_REASON, createAppStore } from '../store/app-store.ts';
import { renderStatic } from '../testing.tsx';
import type { ClientCommand, Transport } from '../transport/transport.ts';
import {
  JobTable,
  ROW_HEIGHT,
  emptyText,
  outcomeText,
  reprioritize,
  visibleRows,
} from './job-table.tsx';

describe('virtualized job table', () => {
  it('renders only the rows in view plus a small overscan, however many jobs there are', () => {
    const [first, last] = visibleRows(0, 10 * ROW_HEIGHT, 100_000);
    expect(first).toBe(0);
    expect(last - first).toBeLessThanOrEqual(10 + 2 * 6);
  });

  it('follows the scroll position and stops at the end of the list', () => {
    expect(visibleRows(500 * ROW_HEIGHT, 10 * ROW_HEIGHT, 100_000)).toEqual([494, 516]);
    expect(visibleRows(95 * ROW_HEIGHT, 10 * ROW_HEIGHT, 100)).toEqual([89, 100]);
    expect(visibleRows(0, 300, 0)).toEqual([0, 0]);
  });
});

describe('job outcome column', () => {
  const row = (extra: Partial<JobRow>): JobRow => ({
    id: 3,
    class: 'a',
    state: 'failed',
    basePriority: 50,
    splits: 1,
    splitsDone: 1,
    scheduledNanos: 0,
    submitNanos: 0,
    endNanos: 5,
    ...extra,
  });

  it('a failed job shows its code and reason; a cancelled one likewise', () => {
    expect(
      outcomeText(row({ errorCode: 'WORKER_LOST', error: 'split 1: worker lost: exit code 7' })),
    ).toBe('WORKER_LOST: split 1: worker lost: exit code 7');
    expect(
      outcomeText(
        row({ state: 'cancelled', errorCode: 'CANCELLED', error: 'cancelled by request' }),
      ),
    ).toBe('CANCELLED: cancelled by request');
  });

  it('a one-split user-module job shows its result; a live or plain job shows nothing', () => {
    expect(outcomeText(row({ state: 'succeeded', result: '{"rows":20}' }))).toBe('→ {"rows":20}');
    expect(outcomeText(row({ state: 'succeeded' }))).toBe('');
    expect(outcomeText(row({ state: 'running', endNanos: null }))).toBe('');
    expect(outcomeText(row({ state: 'queued', endNanos: null }))).toBe('');
  });

  it('a job failed by a thrown value with a code shows that code beside the catalogue’s', () => {
    const failed = row({ errorCode: 'KERNEL_FAILED', causeCode: 'E_PROBE', error: 'Error: probe' });
    expect(outcomeText(failed)).toBe('KERNEL_FAILED (code E_PROBE): Error: probe');
  });
});

describe('the job table’s rows', () => {
  const live = (id: number, state: JobRow['state']): JobRow => ({
    id,
    class: 'run',
    state,
    basePriority: 50,
    splits: 1,
    splitsDone: 0,
    scheduledNanos: state === 'running' ? 5e6 : 0,
    submitNanos: 0,
    endNanos: null,
  });

  function render(readOnly: boolean): string {
    const telemetry = new Telemetry();
    const frame = syntheticFrame({ seq: 1, timeMs: 1000 });
    telemetry.ingestFrame({ ...frame, jobs: [live(1, 'running'), live(2, 'queued')] });
    const state = { status: 'open' as const, readOnly };
    const table: FunctionComponent<{ height?: number }> = JobTable;
    return renderStatic(createElement(table, { height: 400 }), { state, telemetry });
  }

  /** The opening tag of the element with `testId`. */
  function tag(html: string, testId: string): string {
    const at = html.indexOf(`data-testid="${testId}"`);
    expect(at, testId).toBeGreaterThan(0);
    return html.slice(html.lastIndexOf('<', at), html.indexOf('>', at) + 1);
  }

  it('shows a queued job as queued, apart from a running one, and lets either be changed', () => {
    const html = render(false);
    expect(tag(html, 'job-row-2')).toContain('data-state="queued"');
    expect(html).toContain('<span class="state state-queued">queued</span>');
    expect(html).toContain('<span class="state state-running">running</span>');
    for (const id of ['job-priority-2', 'job-reprioritize-2', 'job-cancel-2']) {
      expect(tag(html, id)).not.toContain('disabled');
      expect(tag(html, id)).not.toContain('title=');
    }
  });

  it('on a read-only console, its priority box, set and cancel say why they are off', () => {
    // Regression: they were disabled with no title at all.
    const html = render(true);
    for (const id of ['job-priority-1', 'job-reprioritize-1', 'job-cancel-1']) {
      expect(tag(html, id)).toContain('disabled=""');
      expect(tag(html, id)).toContain(`title="${READ_ONLY_REASON}"`);
    }
  });
});

describe('a job’s priority box', () => {
  /** A host that answers each command with the next of `answers` (ok when they run out). */
  function host(answers: CommandResult[] = []) {
    const sent: ClientCommand[] = [];
    const transport = {
      host: 'browser',
      send: (c: ClientCommand) => {
        sent.push(c);
        return Promise.resolve(answers.shift() ?? { ok: true });
      },
    } as unknown as Transport;
    return { transport, sent, store: createAppStore({ status: 'open' }) };
  }

  it('sends a plain whole number from 0 to 100', async () => {
    const h = host();
    expect(await reprioritize(h.transport, h.store, 4, ' 7 ')).toBe(true);
    expect(await reprioritize(h.transport, h.store, 4, '100')).toBe(true);
    expect(h.sent).toEqual([
      { type: 'reprioritize', jobId: 4, priority: 7 },
      { type: 'reprioritize', jobId: 4, priority: 100 },
    ]);
  });

  it.each(['', '  ', '0x10', '1e1', '7.5', '-1', '101', 'abc'])(
    'refuses %j in the app, naming the field and its range, and sends nothing',
    async (text) => {
      const h = host();
      expect(await reprioritize(h.transport, h.store, 4, text)).toBe(false);
      expect(h.sent).toEqual([]);
      expect(h.store.getState().notice).toEqual({
        kind: 'error',
        text: 'reprioritize: priority must be a whole number from 0 to 100',
        command: 'reprioritize',
      });
    },
  );

  it('a set that succeeds clears the error notice an earlier set left', async () => {
    const h = host([{ ok: false, error: { code: 'UNKNOWN_ID', message: 'no job 4' } }]);
    await reprioritize(h.transport, h.store, 4, '7');
    expect(h.store.getState().notice?.text).toBe('reprioritize: no job 4 (UNKNOWN_ID)');
    await reprioritize(h.transport, h.store, 4, '8');
    expect(h.store.getState().notice).toBeNull();
  });
});

describe('the job table with no rows to list', () => {
  const found = { jobs: [], matched: 0, more: 0, endedKept: 0 } as unknown as FindJobsResult;

  it('says searching… only until the engine answers the search', () => {
    expect(emptyText(true, { value: null, error: null })).toBe('searching…');
    expect(emptyText(true, { value: found, error: null })).toBe('No job matches.');
  });

  it('says nothing more once a bad query’s error is the answer (the error shows below)', () => {
    expect(emptyText(true, { value: null, error: 'unknown field "colour"' })).toBeNull();
  });

  it('without a search, says how to get jobs', () => {
    expect(emptyText(false, { value: null, error: null })).toBe(
      'No jobs yet: run a preset or submit one.',
    );
  });
});
