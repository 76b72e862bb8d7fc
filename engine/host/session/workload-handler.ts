/**
 * The seam between a session and the workloads module (engine/host/server/live-workloads.ts):
 * the session hands `runPreset` and `loadWorkload` to a handler, with the parts of itself a
 * workload drives.
 */
import type { JobSpec } from '../../../shared/job.ts';
import type { WorkloadStarted } from '../../../shared/protocol.ts';
import type { Backend } from '../../runtime/backend.ts';
import type { Executor } from '../../runtime/executor/index.ts';
import type { SessionGraphs } from '../graph/session-graphs.ts';

/** What a workload runs on: the session's executor and backend, and its graph runs. */
export interface WorkloadContext {
  readonly executor: Executor;
  readonly backend: Backend;
  readonly graphs: SessionGraphs;
}

/** Supplied by the workloads module: turns a document or a preset name into submitted jobs. */
export interface WorkloadHandler {
  loadWorkload?(doc: unknown, ctx: WorkloadContext): Promise<WorkloadStarted> | WorkloadStarted;
  runPreset?(
    name: string,
    options: Record<string, unknown> | undefined,
    ctx: WorkloadContext,
  ): Promise<WorkloadStarted> | WorkloadStarted;
  /** Stops the running workload's arrivals (`cancelAll`); submitted jobs are left alone. */
  stop?(): void;
  /**
   * A job a client submits (`submitJob`) that names user modules, checked as a workload's are
   * (the operator's module directories); without it such a job is refused.
   */
  checkJob?(job: JobSpec, ctx: WorkloadContext): Promise<JobSpec>;
}
