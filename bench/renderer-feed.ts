/**
 * The page-side frame generator of the renderer bench, passed to `page.evaluate` (so it must be
 * self-contained). Every 100 ms it builds one protocol frame with `spansPerFrame` back-to-back
 * quanta spread over the workers and hands it to `window.__schedlabInject` (present with
 * `?bench=1`). Returns a stop function's handle on `window.__schedlabFeedStop`.
 */
export interface FeedOptions {
  workers: number;
  spansPerFrame: number;
  config: Record<string, unknown>;
}

export function startFeed(o: FeedOptions): void {
  const w = window as unknown as {
    __schedlabInject(frame: unknown): void;
    __schedlabInjectSnapshot(snapshot: unknown): void;
    __schedlabFeedStop?: () => void;
  };
  const NS = 1e6;
  const perWorker = Math.ceil(o.spansPerFrame / o.workers);
  const counters = {
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
  let seq = 0;
  let job = 0;
  const t0 = performance.now();
  let lastMs = 0;
  const frame = (spans: boolean) => {
    const nowMs = performance.now() - t0;
    // Cover the time since the previous frame, so a late timer tick never leaves a gap and the
    // span rate stays spansPerFrame per 100 ms however the timer is throttled.
    const fromMs = lastMs;
    lastMs = nowMs;
    const cols = {
      count: 0,
      names: ['interactive', 'scan'],
      worker: [] as number[],
      start: [] as number[],
      end: [] as number[],
      job: [] as number[],
      task: [] as number[],
      split: [] as number[],
      level: [] as number[],
      outcome: [] as number[],
      cls: [] as number[],
    };
    if (spans) {
      const n = Math.max(1, Math.round((perWorker * (nowMs - fromMs)) / 100));
      const slice = (nowMs - fromMs) / n;
      for (let wk = 0; wk < o.workers; wk++) {
        for (let k = 0; k < n; k++) {
          const s = fromMs + k * slice;
          job++;
          cols.worker.push(wk);
          cols.start.push(Math.round(s * NS));
          cols.end.push(Math.round((s + slice * 0.9) * NS));
          cols.job.push(job % 97);
          cols.task.push(0);
          cols.split.push(job);
          cols.level.push(job % 5);
          cols.outcome.push(0);
          cols.cls.push(job % 2);
          cols.count++;
        }
      }
      counters.quanta += cols.count;
      counters.submitted += 10;
      counters.succeeded += 10;
    }
    return {
      type: 'frame',
      seq: seq++,
      timeNanos: Math.round(nowMs * NS),
      backend: 'sim',
      policy: 'mlfq',
      paused: false,
      levels: [0, 1, 2, 3, 4].map((l) => ({
        level: l,
        label: `L${l}`,
        depth: 10 - l,
        scheduledNanos: seq * (5 - l) * NS,
        selections: seq * (5 - l),
        minPriority: null,
      })),
      workers: Array.from({ length: o.workers }, (_, id) => ({
        id,
        state: 'running',
        splitId: null,
        jobId: null,
        sinceNanos: null,
      })),
      counters: { ...counters },
      latency: {
        byClass: { interactive: { count: 10, p50: 5, p95: 9, p99: 12, max: 20, mean: 6 } },
        byBand: {},
      },
      wait: {
        byClass: { interactive: { count: 10, p50: 1, p95: 2, p99: 3, max: 4, mean: 1 } },
        byBand: {},
      },
      fairness: { jain: 0.9, jobs: 97 },
      utilization: 0.97,
      spans: cols,
      spansDropped: 0,
      config: o.config,
      events: [],
      jobs: [],
    };
  };
  const first = frame(false);
  w.__schedlabInjectSnapshot({
    type: 'snapshot',
    frame: first,
    spans: first.spans,
    events: [],
    policies: ['mlfq', 'priority', 'fifo', 'fair'],
    frameHz: 10,
  });
  const timer = setInterval(() => w.__schedlabInject(frame(true)), 100);
  w.__schedlabFeedStop = () => clearInterval(timer);
}
