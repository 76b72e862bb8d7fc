/**
 * Small builders for tests and benchmarks that drive the executor on the simulator.
 */
import type { EngineConfigPatch } from '../../../shared/config.ts';
import type { SpanColumns } from '../../../shared/protocol.ts';
import type { Backend, BackendEvents, QuantumEnd, SplitWork } from '../backend.ts';
import { SimBackend, type SimOptions } from '../sim/sim-backend.ts';
import { Executor, type JobEnd } from './executor.ts';
import type { JobSpec, SplitSpec } from './job-spec.ts';

export const MS = 1_000_000;

export function spin(totalMs: number, extra: Partial<SplitWork> = {}): SplitWork {
  return { kernel: 'spin', totalNanos: totalMs * MS, ...extra };
}

export function leaves(n: number, work: SplitWork): SplitSpec[] {
  return Array.from({ length: n }, () => ({ kind: 'leaf', work }));
}

export function intermediates(n: number, work: SplitWork): SplitSpec[] {
  return Array.from({ length: n }, () => ({ kind: 'intermediate', work }));
}

export function oneTaskJob(
  cls: string,
  splits: SplitSpec[],
  extra: Partial<JobSpec> = {},
): JobSpec {
  return { class: cls, tasks: [{ splits }], ...extra };
}

export interface SimRig {
  sim: SimBackend;
  ex: Executor;
  ends: JobEnd[];
}

export function simRig(config: EngineConfigPatch = {}, seed = 1): SimRig {
  const sim = new SimBackend({ workers: config.workers ?? 4, seed });
  const ex = new Executor(sim, config);
  const ends: JobEnd[] = [];
  ex.onJobEnd((e) => ends.push(e));
  return { sim, ex, ends };
}

/**
 * The sim with its quantum ends rewritten before the executor sees them: `rewrite` returns the
 * ends to deliver (none, the same one, a changed copy, or one twice), to play what the sim cannot
 * do by itself — a user module's result, a lost worker, a backend bug.
 */
export class RewritingSim extends SimBackend {
  constructor(
    options: SimOptions,
    private readonly rewrite: (end: QuantumEnd) => QuantumEnd[],
  ) {
    super(options);
  }

  override setListener(events: BackendEvents): void {
    super.setListener({
      quantumEnd: (end) => {
        for (const e of this.rewrite({ ...end })) events.quantumEnd(e);
      },
    });
  }
}

/**
 * Checks a span log: no split runs twice at once or after it finished, no worker runs two quanta
 * at once. Returns the problems found and how many splits finished.
 */
export function spanProblems(s: SpanColumns): { finished: number; problems: string[] } {
  const lastEnd = new Map<number, number>();
  const finished = new Set<number>();
  const workerEnd = new Map<number, number>();
  const problems: string[] = [];
  for (let i = 0; i < s.count; i++) {
    const id = s.split[i]!;
    if (finished.has(id)) problems.push(`split ${id} ran after it finished`);
    if (s.start[i]! < (lastEnd.get(id) ?? 0)) problems.push(`split ${id} ran twice at once`);
    if (s.start[i]! < (workerEnd.get(s.worker[i]!) ?? 0))
      problems.push(`worker ${s.worker[i]} overlap`);
    lastEnd.set(id, s.end[i]!);
    workerEnd.set(s.worker[i]!, s.end[i]!);
    if (s.outcome[i] === 2) finished.add(id);
  }
  return { finished: finished.size, problems };
}

/**
 * Calls `fn` in a microtask after each dispatch `backend` queues behind a running quantum
 * (`enqueue`, pipelining). The queued state lasts from late binding until the quantum starts, a
 * few ms that a periodic sample can miss; a microtask runs before any end can be read, so it
 * cannot. Returns the undo.
 */
export function afterEachEnqueue(backend: Backend, fn: () => void): () => void {
  const enqueue = backend.enqueue?.bind(backend);
  if (enqueue === undefined) return () => {};
  backend.enqueue = (dispatch) => {
    enqueue(dispatch);
    queueMicrotask(fn);
  };
  return () => {
    backend.enqueue = enqueue;
  };
}
