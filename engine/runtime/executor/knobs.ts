/**
 * The executor's live configuration: the config, its settings in ns (settings.ts), and the ready
 * queue of the policy it names, with the level table that carries charged time across policy
 * switches (executor-rows.ts). Every part reads them here; only the reconfigurer
 * (live-reconfig.ts) replaces them, so a part always sees the knobs of now.
 */
import type { EngineConfig } from '../../../shared/config.ts';
import { createPolicy, type PolicyKnobs } from '../../core/policies.ts';
import type { AgingKnobs } from '../../core/priority/aging.ts';
import { agingClock } from '../../core/priority/priority-policy.ts';
import type { OfferReason, ReadyQueue } from '../../core/ready-queue.ts';
import { LevelTable } from './executor-rows.ts';
import type { ExecSplit } from './records.ts';
import { toSettings, type EngineSettings } from './settings.ts';

export class Knobs {
  cfg: EngineConfig;
  settings: EngineSettings;
  queue: ReadyQueue<ExecSplit>;
  /** Level rows, with what earlier queues of each policy charged (executor-rows.ts). */
  readonly levelTable = new LevelTable();
  private knobsFor: object | null = null;
  private aging: AgingKnobs | null = null;

  constructor(config: EngineConfig) {
    this.cfg = config;
    this.settings = toSettings(config);
    this.queue = createPolicy<ExecSplit>(config.policy, this.policyKnobs());
  }

  /**
   * Offers `split` to the ready queue. Under every policy but `priority` (which keeps its own) the
   * split's aging clock is kept too (`readySince`, priority-policy.ts `agingClock`), so a switch
   * to `priority` ages each split for the time it really waited, not all the time since its
   * job came (a split that had run alone for a second aged to its cap at once).
   */
  offer(split: ExecSplit, now: number, reason: OfferReason): void {
    if (this.cfg.policy !== 'priority') split.readySince = agingClock(split, now, reason);
    this.queue.offer(split, now, reason);
  }

  policyKnobs(): PolicyKnobs {
    const s = this.settings;
    const c = this.cfg;
    return {
      levelTimeMultiplier: c.levelTimeMultiplier,
      levelThresholdsNanos: s.levelThresholdsNanos,
      levelContributionCapNanos: s.levelContributionCapNanos,
      aging: c.aging,
      agingAfterNanos: s.agingAfterNanos,
      agingStepNanos: s.agingStepNanos,
      agingCap: c.agingCap,
      agingIntervalNanos: s.agingIntervalNanos,
      quotaBurst: c.quotaBurst,
      // The executor bounds the queue itself (maxQueued); the policy must never refuse a split.
      // A bound of its own refused a requeue once maxQueued was lowered live below half the
      // splits already queued (1.06 M queued, lowered to 1: a split waking threw out of the run).
      maxQueued: Number.MAX_SAFE_INTEGER,
      quantumNanos: s.dispatchQuantumNanos,
    };
  }

  /** The aging knobs of the settings now, made once per settings object. */
  agingKnobs(): AgingKnobs {
    const s = this.settings;
    if (this.knobsFor !== s) {
      this.knobsFor = s;
      this.aging = {
        aging: this.cfg.aging,
        agingAfterNanos: s.agingAfterNanos,
        agingStepNanos: s.agingStepNanos,
        agingCap: this.cfg.agingCap,
      };
    }
    return this.aging!;
  }
}
