/**
 * Protocol-shaped frames made up from parameters, for unit tests and the renderer bench (which
 * injects them at 10 Hz with `?bench=1`). Nothing in the app itself uses them.
 */
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from '../../../shared/config.ts';
import type { Counters, Frame, SpanColumns } from '../../../shared/protocol.ts';

export interface SyntheticSpan {
  worker: number;
  startMs: number;
  endMs: number;
  job: number;
  level: number;
  cls?: string;
}

export function spanColumns(spans: readonly SyntheticSpan[]): SpanColumns {
  const names: string[] = [];
  const index = new Map<string, number>();
  const cols: SpanColumns = {
    count: spans.length,
    names,
    worker: [],
    start: [],
    end: [],
    job: [],
    task: [],
    split: [],
    level: [],
    outcome: [],
    cls: [],
  };
  spans.forEach((s, k) => {
    const name = s.cls ?? 'batch';
    let c = index.get(name);
    if (c === undefined) {
      c = names.length;
      names.push(name);
      index.set(name, c);
    }
    cols.worker.push(s.worker);
    cols.start.push(Math.round(s.startMs * 1e6));
    cols.end.push(Math.round(s.endMs * 1e6));
    cols.job.push(s.job);
    cols.task.push(0);
    cols.split.push(k);
    cols.level.push(s.level);
    cols.outcome.push(0);
    cols.cls.push(c);
  });
  return cols;
}

export function emptyCounters(): Counters {
  return {
    submitted: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
    rejected: 0,
    live: 0,
    splitsWaiting: 0,
    splitsQueued: 0,
    splitsRunning: 0,
    splitsBlocked: 0,
    splitsRetrying: 0,
    splitsSucceeded: 0,
    splitsFailed: 0,
    splitsCancelled: 0,
    rejectedSplits: 0,
    quanta: 0,
    retries: 0,
    busyNanos: 0,
    overrunNanos: 0,
  };
}

export interface SyntheticFrameOptions {
  seq: number;
  timeMs: number;
  workers?: number;
  spans?: readonly SyntheticSpan[];
  depth?: readonly number[];
  levelMs?: readonly number[];
  /** Cumulative selections per level (default 0). */
  selections?: readonly number[];
  /** Cumulative charged time per level (ms); absent = the host does not report it. */
  chargedMs?: readonly number[];
  /** PRIO: cumulative aging boosts per band; absent = not reported. */
  agingBoosts?: readonly number[];
  /** Level labels (default `L0`…). */
  labels?: readonly string[];
  /** Worker rows (default: `workers` idle-less running rows with no quantum start). */
  workerRows?: Frame['workers'];
  config?: Partial<EngineConfig>;
  paused?: boolean;
  /** Under fair: service per fairness group, as a host reports it. */
  fairGroups?: Frame['fairGroups'];
  /** The tenants the host holds, and how many more it holds. */
  tenants?: Frame['tenants'];
  tenantsMore?: number;
}

export function syntheticFrame(o: SyntheticFrameOptions): Frame {
  const workers = o.workers ?? 4;
  const depth = o.depth ?? [0, 0, 0, 0, 0];
  const config = { ...DEFAULT_ENGINE_CONFIG, ...o.config };
  return {
    type: 'frame',
    seq: o.seq,
    timeNanos: Math.round(o.timeMs * 1e6),
    backend: 'sim',
    policy: config.policy,
    paused: o.paused ?? false,
    levels: depth.map((d, l) => ({
      level: l,
      label: o.labels?.[l] ?? `L${l}`,
      depth: d,
      scheduledNanos: Math.round((o.levelMs?.[l] ?? 0) * 1e6),
      selections: o.selections?.[l] ?? 0,
      minPriority: null,
      ...(o.chargedMs === undefined
        ? {}
        : { chargedNanos: Math.round((o.chargedMs[l] ?? 0) * 1e6) }),
      ...(o.agingBoosts === undefined ? {} : { agingBoosts: o.agingBoosts[l] ?? 0 }),
    })),
    workers:
      o.workerRows ??
      Array.from({ length: workers }, (_, id) => ({
        id,
        state: 'running' as const,
        splitId: null,
        jobId: null,
        sinceNanos: null,
      })),
    counters: emptyCounters(),
    latency: { byClass: {}, byBand: {} },
    wait: { byClass: {}, byBand: {} },
    fairness: { jain: 1, jobs: 0 },
    utilization: 1,
    spans: spanColumns(o.spans ?? []),
    spansDropped: 0,
    config,
    events: [],
    jobs: [],
    ...(o.fairGroups === undefined ? {} : { fairGroups: o.fairGroups }),
    ...(o.tenants === undefined ? {} : { tenants: o.tenants, tenantsMore: o.tenantsMore ?? 0 }),
  };
}
