/**
 * Live reconfiguration (docs/design.md §4): every knob changes through `configure` while jobs run,
 * without losing or duplicating a split. A policy switch drains the old queue into the new one
 * (`'moved'`), a fairness change re-points groups, a shorter quantum cuts the running ones. Each
 * change is recorded as an event with its backend time.
 */
import type { EngineConfig, EngineConfigPatch, PolicyName } from '../../../shared/config.ts';
import { configurePolicy, createPolicy } from '../../core/policies.ts';
import { ExecutorCore } from './executor-core.ts';
import { SplitState } from './lifecycle.ts';
import { groupFor, type ExecSplit } from './records.ts';
import { mergeConfig, toSettings } from './settings.ts';
import { retargetTasks } from './task-concurrency.ts';

export abstract class ExecutorReconfig extends ExecutorCore {
  setPolicy(name: PolicyName): void {
    this.configure({ policy: name });
  }

  setWorkers(count: number): void {
    this.configure({ workers: count });
  }

  /** Validates the whole patch first (coded error naming the field), then applies it live. */
  configure(patch: EngineConfigPatch | unknown): EngineConfig {
    this.ensureOpen();
    const next = mergeConfig(this.cfg, patch);
    const prev = this.cfg;
    const changed = (Object.keys(next) as (keyof EngineConfig)[]).filter(
      (k) => JSON.stringify(next[k]) !== JSON.stringify(prev[k]),
    );
    if (changed.length === 0) return prev;
    const prevQuantum = this.settings.dispatchQuantumNanos;
    this.cfg = next;
    this.settings = toSettings(next);
    if (next.workers !== prev.workers) this.backend.setWorkerCount(next.workers);
    this.backend.setHardKill?.(this.settings.hardKillNanos);
    if (next.policy !== prev.policy) this.switchPolicy(next.policy);
    else configurePolicy(this.queue, this.policyKnobs());
    if (next.fairness !== prev.fairness) this.regroup();
    if (this.settings.dispatchQuantumNanos < prevQuantum) this.shortenRunning();
    if (JSON.stringify(next.levelThresholdsMs) !== JSON.stringify(prev.levelThresholdsMs)) {
      this.execStats.rethreshold(this.settings.levelThresholdsNanos, this.tasks.values());
    }
    if (
      next.initialSplitConcurrency !== prev.initialSplitConcurrency ||
      next.splitConcurrencyAdjustMs !== prev.splitConcurrencyAdjustMs
    ) {
      retargetTasks(this.tasks.values(), next, this.settings);
    }
    for (const k of changed) {
      const kind = k === 'policy' ? 'policy' : k === 'workers' ? 'workers' : 'config';
      this.record(kind, `${k}: ${JSON.stringify(prev[k])} → ${JSON.stringify(next[k])}`);
    }
    this.admit();
    this.ensureTicker();
    this.pump();
    return next;
  }

  private switchPolicy(name: PolicyName): void {
    const now = this.backend.now();
    const moved = this.queue.drain();
    this.levelTable.retire(this.queue);
    this.queue = createPolicy<ExecSplit>(name, this.policyKnobs());
    for (const s of moved) this.queue.offer(s, now, 'moved');
  }

  /** Fairness changed: every live split joins its new group; queued ones are re-offered. */
  private regroup(): void {
    const now = this.backend.now();
    const moved = this.queue.drain();
    for (const s of this.splits.values()) {
      s.group = groupFor(s, this.cfg.fairness);
      s.priority = s.group.priority;
    }
    for (const s of moved) this.queue.offer(s, now, 'moved');
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
    const quantum = this.settings.dispatchQuantumNanos;
    for (let w = 0; w < this.runningOn.length; w++) {
      if (this.runningOn[w]?.state === SplitState.running) backend.shortenQuantum(w, quantum);
    }
  }
}
