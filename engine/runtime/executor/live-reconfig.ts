/**
 * Live reconfiguration (docs/design.md §4): every knob changes through `configure` while jobs run,
 * without losing or duplicating a split. A policy switch drains the old queue into the new one
 * (`'moved'`), a fairness change re-points groups, a shorter quantum cuts the running ones. Each
 * change is recorded as an event with its backend time; then the executor re-admits and
 * dispatches (`ReconfigHooks.afterChange`). Changes only the knobs (knobs.ts) and what the
 * records derive from them.
 */
import type { EngineConfig, EngineConfigPatch, PolicyName } from '../../../shared/config.ts';
import { configurePolicy, createPolicy } from '../../core/policies.ts';
import type { Backend } from '../backend.ts';
import type { ExecutorStats } from './executor-stats.ts';
import type { Knobs } from './knobs.ts';
import { SplitState } from './lifecycle.ts';
import { groupFor, type ExecSplit } from './records.ts';
import { mergeConfig, toSettings } from './settings.ts';
import type { SplitBook } from './split-book.ts';
import { retargetTasks } from './task-concurrency.ts';

/** What the reconfigurer tells the executor. */
export interface ReconfigHooks {
  /** A timeline marker, one per changed field. */
  record(kind: string, detail: string): void;
  /** After a change: admission, the aging ticker and dispatch look again. */
  afterChange(): void;
}

export class Reconfigurer {
  constructor(
    private readonly backend: Backend,
    private readonly knobs: Knobs,
    private readonly live: SplitBook,
    private readonly execStats: ExecutorStats,
    /** Which split runs on each worker (the dispatcher's `runningOn`). */
    private readonly runningOn: readonly (ExecSplit | null)[],
    private readonly hooks: ReconfigHooks,
  ) {}

  /** Validates the whole patch first (coded error naming the field), then applies it live. */
  configure(patch: EngineConfigPatch | unknown): EngineConfig {
    const next = mergeConfig(this.knobs.cfg, patch);
    const prev = this.knobs.cfg;
    const changed = (Object.keys(next) as (keyof EngineConfig)[]).filter(
      (k) => JSON.stringify(next[k]) !== JSON.stringify(prev[k]),
    );
    if (changed.length === 0) return prev;
    const prevQuantum = this.knobs.settings.dispatchQuantumNanos;
    this.knobs.cfg = next;
    this.knobs.settings = toSettings(next);
    if (next.workers !== prev.workers) this.backend.setWorkerCount(next.workers);
    this.backend.setHardKill?.(this.knobs.settings.hardKillNanos);
    if (next.policy !== prev.policy) this.switchPolicy(next.policy);
    else configurePolicy(this.knobs.queue, this.knobs.policyKnobs());
    if (next.fairness !== prev.fairness) this.regroup();
    if (this.knobs.settings.dispatchQuantumNanos < prevQuantum) this.shortenRunning();
    if (JSON.stringify(next.levelThresholdsMs) !== JSON.stringify(prev.levelThresholdsMs)) {
      this.execStats.rethreshold(
        this.knobs.settings.levelThresholdsNanos,
        this.live.tasks.values(),
      );
    }
    if (
      next.initialSplitConcurrency !== prev.initialSplitConcurrency ||
      next.splitConcurrencyAdjustMs !== prev.splitConcurrencyAdjustMs
    ) {
      retargetTasks(this.live.tasks.values(), next, this.knobs.settings);
    }
    for (const k of changed) {
      const kind = k === 'policy' ? 'policy' : k === 'workers' ? 'workers' : 'config';
      this.hooks.record(kind, `${k}: ${JSON.stringify(prev[k])} → ${JSON.stringify(next[k])}`);
    }
    this.hooks.afterChange();
    return next;
  }

  private switchPolicy(name: PolicyName): void {
    const now = this.backend.now();
    const moved = this.knobs.queue.drain();
    this.knobs.levelTable.retire(this.knobs.queue);
    this.knobs.queue = createPolicy<ExecSplit>(name, this.knobs.policyKnobs());
    for (const s of moved) this.knobs.queue.offer(s, now, 'moved');
  }

  /** Fairness changed: every live split joins its new group; queued ones are re-offered. */
  private regroup(): void {
    const now = this.backend.now();
    const moved = this.knobs.queue.drain();
    for (const s of this.live.splits.values()) {
      s.group = groupFor(s, this.knobs.cfg.fairness);
      s.priority = s.group.priority;
    }
    for (const s of moved) this.knobs.queue.offer(s, now, 'moved');
  }

  /**
   * The dispatch quantum just got shorter: quanta running longer than it (run-to-completion ones
   * under non-preemptive `priority`, above all) end at most one new quantum after they started,
   * so the new policy gets their workers. The backend takes min(its end, start + quantum), so
   * asking every running worker is safe; one without `shortenQuantum` lets them run out.
   */
  private shortenRunning(): void {
    const backend = this.backend;
    if (backend.shortenQuantum === undefined) return;
    const quantum = this.knobs.settings.dispatchQuantumNanos;
    for (let w = 0; w < this.runningOn.length; w++) {
      if (this.runningOn[w]?.state === SplitState.running) backend.shortenQuantum(w, quantum);
    }
  }
}
