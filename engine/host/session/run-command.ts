/**
 * What each validated command does to a session, one handler per command, each answering with
 * the shape `CommandResults` (shared/protocol.ts) gives it. Errors are thrown as coded
 * `SchedLabError`s and turned into `{ok: false, error}` by `Session.handleCommand`.
 */
import { SchedLabError, isSchedLabError } from '../../../shared/errors.ts';
import type { JobSpec } from '../../../shared/job.ts';
import type {
  Command,
  CommandOf,
  CommandResults,
  CommandType,
  Snapshot,
  WorkloadStarted,
} from '../../../shared/protocol.ts';
import { prefixField } from '../../../shared/schema-error.ts';
import { jobModuleUses } from '../report/user-modules.ts';
import { runCompare } from './compare-command.ts';
import type { LatencyStats } from './stats.ts';
import type { WorkloadContext, WorkloadHandler } from './workload-handler.ts';

/** The parts of a session the commands act on (a `Session` is one). */
export interface CommandTarget extends WorkloadContext {
  readonly stats: LatencyStats;
  readonly workloads: WorkloadHandler | undefined;
  speed: number | 'max';
  /** The wait past which a split counts as starving (warnings, job detail). */
  readonly starvationMs: number;
  snapshot(): Snapshot;
}

type Handler<T extends CommandType> = (
  cmd: CommandOf<T>,
) => CommandResults[T] | Promise<CommandResults[T]>;

/** Runs a session's commands; holds what spans commands (a `compare` in progress). */
export class CommandRunner {
  /**
   * The `compare` running, which `cancelCompare` aborts; one at a time, as each run holds the
   * event loop. A cancelled one lets go at once: it runs no further step, and the next may start.
   */
  private comparison: AbortController | null = null;
  private readonly handlers: { [T in CommandType]: Handler<T> };

  constructor(private readonly s: CommandTarget) {
    const ex = s.executor;
    this.handlers = {
      configure: (cmd) => ({ config: ex.configure(cmd.config) }),
      setPolicy: (cmd) => {
        ex.setPolicy(cmd.policy);
        return { policy: ex.policyName, config: ex.config };
      },
      setWorkers: (cmd) => {
        ex.setWorkers(cmd.workers);
        return { workers: ex.backend.workerCount, config: ex.config };
      },
      submitJob: (cmd) => {
        // A job naming user modules is held to the operator's module directories, as a workload
        // is (before, submitJob ran any module file on the host); the others go in at once.
        if (jobModuleUses(cmd.job).length === 0) return this.submitted(cmd.job);
        const check = this.s.workloads?.checkJob;
        if (check === undefined) refuseModules(cmd.job);
        return check(cmd.job, this.s).then((job) => this.submitted(job));
      },
      cancelJob: (cmd) => {
        if (!ex.cancelJob(cmd.jobId)) {
          throw new SchedLabError('UNKNOWN_ID', `jobId: no live job ${cmd.jobId}`, 'jobId');
        }
        return { jobId: cmd.jobId };
      },
      reprioritize: (cmd) => {
        ex.reprioritize(cmd.jobId, cmd.priority);
        return { jobId: cmd.jobId, priority: cmd.priority };
      },
      interruptSplit: (cmd) => ({ splitId: cmd.splitId, ...ex.interruptSplit(cmd.splitId) }),
      pause: () => {
        ex.pause();
        return { paused: true };
      },
      resume: () => {
        ex.resume();
        return { paused: false };
      },
      loadWorkload: async (cmd) => {
        const load = s.workloads?.loadWorkload;
        if (!load)
          throw new SchedLabError(
            'INVALID_WORKLOAD',
            'workload: this host has no workload loader',
            'workload',
          );
        return this.started(await load(cmd.workload, s), 'workload loaded');
      },
      runPreset: async (cmd) => {
        const run = s.workloads?.runPreset;
        if (!run)
          throw new SchedLabError(
            'UNKNOWN_PRESET',
            `preset: this host has no presets ('${cmd.preset}')`,
            'preset',
          );
        return this.started(await run(cmd.preset, cmd.options, s), `preset ${cmd.preset}`);
      },
      snapshot: () => ({ snapshot: s.snapshot() }),
      configureGraph: (cmd) => ({ graphConfig: s.graphs.configure(cmd.config) }),
      cancelAll: () => {
        // Arrivals first, so nothing of the old workload is submitted after the cancel.
        s.workloads?.stop?.();
        const graph = s.graphs.active ? 1 : 0;
        s.graphs.cancel();
        return { cancelled: ex.cancelAll() + graph };
      },
      resetStats: () => {
        s.stats.reset(ex.now());
        ex.record('stats', 'latency and wait tables reset');
        return {};
      },
      setSpeed: (cmd) => {
        s.speed = cmd.speed;
        ex.record('config', `speed: ${cmd.speed}`);
        return { speed: cmd.speed };
      },
      setBackend: () => {
        // Only the app's live session (live-session.ts) owns its sessions and can replace one.
        throw new SchedLabError(
          'INVALID_ARGUMENT',
          'backend: this host runs one backend; the app’s live session (schedlab serve, the desktop app) switches backends',
          'backend',
        );
      },
      setTenantWeights: (cmd) => {
        ex.setTenantWeights(cmd.weights);
        return { weights: ex.tenantWeights, version: ex.tenantWeightsVersion };
      },
      tenantWeights: () => ({ weights: ex.tenantWeights, version: ex.tenantWeightsVersion }),
      findJobs: (cmd) => ex.findJobs(cmd.query, cmd.limit),
      jobDetail: (cmd) => ex.jobDetail(cmd.jobId, s.starvationMs),
      compare: async (cmd) => {
        if (this.comparison !== null) {
          throw new SchedLabError('QUEUE_FULL', 'type: a compare is already running', 'type');
        }
        const run = new AbortController();
        this.comparison = run;
        try {
          return await runCompare(cmd, run.signal);
        } finally {
          if (this.comparison === run) this.comparison = null;
        }
      },
      cancelCompare: () => {
        const run = this.comparison;
        run?.abort();
        this.comparison = null;
        return { cancelled: run !== null };
      },
    };
  }

  async run(cmd: Command): Promise<CommandResults[CommandType]> {
    // `cmd.type` and `cmd` are correlated, which TypeScript cannot follow through the table.
    const handler = this.handlers[cmd.type] as Handler<CommandType>;
    return handler(cmd);
  }

  /** A workload started: noted on the timeline, and the tables describe it from now on. */
  private started(
    result: WorkloadStarted | undefined,
    note: string,
  ): { result: WorkloadStarted | null } {
    const ex = this.s.executor;
    ex.record('workload', note);
    // The tables (and their alarms) describe this workload from now on, not the last one.
    this.s.stats.reset(ex.now());
    return { result: result ?? null };
  }

  private submitted(job: JobSpec): CommandResults['submitJob'] {
    const ex = this.s.executor;
    const jobId = this.submitJob(job);
    const row = ex.jobRow(jobId);
    if (row?.state === 'rejected') {
      // The job's row keeps why (`maxQueued …` or `maxLivePerTenant … by tenant …`).
      const why = row.error ?? 'the queue is full';
      throw new SchedLabError('QUEUE_FULL', `job rejected: ${why}`, 'job');
    }
    return { jobId, taskIds: ex.taskIds(jobId) };
  }

  /** A bad field found past the schema (a task's limit over the engine's) is named from `job`. */
  private submitJob(job: JobSpec): number {
    try {
      return this.s.executor.submitJob(job);
    } catch (e) {
      if (isSchedLabError(e) && e.code === 'INVALID_ARGUMENT') throw prefixField(e, ['job']);
      throw e;
    }
  }
}

/** A session without module directories (a service's console) runs no module a client names. */
function refuseModules(job: JobSpec): never {
  const field = jobModuleUses(job)[0]!.field;
  const why = `${field}: this session loads no user modules a client names`;
  throw new SchedLabError('MODULE_NOT_ALLOWED', why, field);
}
