/**
 * What each validated command does to a session. Errors are thrown as coded `SchedLabError`s and
 * turned into `{ok: false, error}` by `Session.handleCommand`.
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type { Command } from '../../../shared/protocol.ts';
import type { JobSpec } from '../../runtime/executor/index.ts';
import { runCompare } from './compare-command.ts';
import type { Session } from './session.ts';

/** Sessions running a `compare` now: one at a time each, as every run holds the event loop. */
const comparing = new WeakSet<Session>();

export async function runCommand(session: Session, cmd: Command): Promise<Record<string, unknown>> {
  const ex = session.executor;
  const ctx = { session, executor: ex, backend: session.backend };
  switch (cmd.type) {
    case 'configure':
      return { config: ex.configure(cmd.config) };
    case 'setPolicy':
      ex.setPolicy(cmd.policy);
      return { policy: ex.policyName, config: ex.config };
    case 'setWorkers':
      ex.setWorkers(cmd.workers);
      return { workers: ex.backend.workerCount, config: ex.config };
    case 'submitJob': {
      const jobId = ex.submitJob(cmd.job as JobSpec);
      if (ex.jobState(jobId) === 'rejected') {
        throw new SchedLabError(
          'QUEUE_FULL',
          `job rejected: maxQueued ${ex.config.maxQueued} reached`,
          'job',
        );
      }
      return { jobId, taskIds: ex.taskIds(jobId) };
    }
    case 'cancelJob':
      if (!ex.cancelJob(cmd.jobId)) {
        throw new SchedLabError('UNKNOWN_ID', `jobId: no live job ${cmd.jobId}`, 'jobId');
      }
      return { jobId: cmd.jobId };
    case 'reprioritize':
      ex.reprioritize(cmd.jobId, cmd.priority);
      return { jobId: cmd.jobId, priority: cmd.priority };
    case 'pause':
      ex.pause();
      return { paused: true };
    case 'resume':
      ex.resume();
      return { paused: false };
    case 'loadWorkload': {
      const load = session.workloads?.loadWorkload;
      if (!load)
        throw new SchedLabError(
          'INVALID_WORKLOAD',
          'workload: this host has no workload loader',
          'workload',
        );
      const result = await load(cmd.workload, ctx);
      ex.record('workload', 'workload loaded');
      session.stats.reset(ex.now());
      return { result: result ?? null };
    }
    case 'runPreset': {
      const run = session.workloads?.runPreset;
      if (!run)
        throw new SchedLabError(
          'UNKNOWN_PRESET',
          `preset: this host has no presets ('${cmd.preset}')`,
          'preset',
        );
      const result = await run(cmd.preset, cmd.options, ctx);
      ex.record('workload', `preset ${cmd.preset}`);
      // The tables (and their alarms) describe this workload from now on, not the last one.
      session.stats.reset(ex.now());
      return { result: result ?? null };
    }
    case 'snapshot':
      return { snapshot: session.snapshot() };
    case 'configureGraph':
      return { graphConfig: session.graphs.configure(cmd.config) };
    case 'cancelAll': {
      // Arrivals first, so nothing of the old workload is submitted after the cancel.
      session.workloads?.stop?.();
      const graph = session.graphs.active ? 1 : 0;
      session.graphs.cancel();
      return { cancelled: ex.cancelAll() + graph };
    }
    case 'resetStats':
      session.stats.reset(ex.now());
      ex.record('stats', 'latency and wait tables reset');
      return {};
    case 'setSpeed':
      session.speed = cmd.speed;
      ex.record('config', `speed: ${cmd.speed}`);
      return { speed: cmd.speed };
    case 'setBackend':
      // Only the app's live session (live-session.ts) owns its sessions and can replace one.
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        'backend: this host runs one backend; the app’s live session (schedlab serve, the desktop app) switches backends',
        'backend',
      );
    case 'compare': {
      if (comparing.has(session)) {
        throw new SchedLabError('QUEUE_FULL', 'type: a compare is already running', 'type');
      }
      comparing.add(session);
      try {
        return { ...(await runCompare(cmd)) };
      } finally {
        comparing.delete(session);
      }
    }
  }
}
