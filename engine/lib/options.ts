/**
 * The options of a `Scheduler` and of one `run`, their defaults and their checks (a bad value is
 * a coded error naming its field).
 */
import type { EngineConfigPatch } from '../../shared/config.ts';
import { invalidArgument } from '../../shared/errors.ts';
import { MAX_CLASS_NAME, MAX_TENANT_NAME } from '../../shared/job.ts';
import { assertPriority } from '../core/priority/index.ts';
import type { ResourceLimits } from '../runtime/threads/threads-options.ts';
import { checkTransferList, type TransferItem } from '../runtime/threads/transfer.ts';

/**
 * Engine settings (shared/config.ts: `policy`, `workers`, `quantumMs`, `levelTimeMultiplier`,
 * `levelThresholdsMs`, `aging`, `maxQueued`, …, all changeable later with `configure`) plus what
 * only a scheduler has.
 */
export interface SchedulerOptions extends EngineConfigPatch {
  /** Per worker thread, over the engine's default limits (512 MB old generation). */
  readonly resourceLimits?: ResourceLimits;
  /**
   * Tenants' shares under `fair`, by name (0.01–1000; every tenant not named has 1): a tenant of
   * weight 3 is served three times as long as one of weight 1 while both have runs waiting.
   * `setTenantWeights` replaces them later.
   */
  readonly tenantWeights?: Readonly<Record<string, number>>;
}

/**
 * A library's defaults, where they differ from the engine's: a service's requests take
 * milliseconds, so the quantum is 10 ms (the app's presets use 1 s), and fairness is per tenant
 * (`query`: a tenant's runs share one group, records.ts).
 */
export const LIBRARY_DEFAULTS: EngineConfigPatch = { quantumMs: 10, fairness: 'query' };

export interface RunOptions {
  /**
   * The fairness group: under `mlfq` a tenant's accumulated time decides the level of its runs;
   * under `fair` tenants share the workers equally; under `priority` it is only reported. Absent:
   * the run is its own group.
   */
  readonly tenant?: string;
  /** A label for reports and the console (latency per class). Default `default`. */
  readonly class?: string;
  /** 0..100, smaller is more urgent (the `priority` policy; aging raises waiting runs). Default 50. */
  readonly priority?: number;
  /** Aborting it cancels the run, queued or running: it rejects with `CANCELLED`. */
  readonly signal?: AbortSignal;
  /** The run is cancelled after this many ms and rejects with `TIMEOUT`. */
  readonly timeoutMs?: number;
  /**
   * What the input moves to the worker rather than copies, as Piscina's and `postMessage`'s:
   * ArrayBuffers (not views: a typed array's `.buffer`) and MessagePorts, at most
   * `MAX_TRANSFER_LIST` (1024). They move when the run is sent to its worker, not at the call: until
   * then they are still the caller's, and after, they are detached on its side. A module task's
   * only (a built-in kernel's input is `{ ms }`).
   */
  readonly transferList?: readonly TransferItem[];
}

const MAX_TIMEOUT_MS = 2_147_483_647; // setTimeout's limit

/** `RunOptions`' keys: any other is a typo or an option of another pool, never ignored. */
const RUN_OPTIONS: ReadonlySet<string> = new Set<keyof RunOptions>([
  'tenant',
  'class',
  'priority',
  'signal',
  'timeoutMs',
  'transferList',
]);

/** Throws INVALID_ARGUMENT naming the first key of `options` not in `known` (`what`: "a run option"). */
export function checkKnownKeys(options: object, known: ReadonlySet<string>, what: string): void {
  for (const key in options) {
    if (!known.has(key)) throw invalidArgument(key, `is not ${what} (${[...known].join(', ')})`);
  }
}

/** Checks the fields the executor does not (it checks `tenant` and `priority` again). */
export function checkRunOptions(options: RunOptions): void {
  if (options === null || typeof options !== 'object')
    throw invalidArgument('options', 'must be an object');
  // A misspelt `tenant` would otherwise run the task outside its tenant's group, silently.
  checkKnownKeys(options, RUN_OPTIONS, 'a run option');
  const cls = options.class;
  if (
    cls !== undefined &&
    (typeof cls !== 'string' || cls.length === 0 || cls.length > MAX_CLASS_NAME)
  ) {
    throw invalidArgument('class', `must be a string of 1 to ${MAX_CLASS_NAME} characters`);
  }
  if (options.priority !== undefined) assertPriority(options.priority, 'priority');
  const tenant = options.tenant;
  if (
    tenant !== undefined &&
    (typeof tenant !== 'string' || tenant.length === 0 || tenant.length > MAX_TENANT_NAME)
  ) {
    throw invalidArgument('tenant', `must be a string of 1 to ${MAX_TENANT_NAME} characters`);
  }
  const t = options.timeoutMs;
  if (t !== undefined && !(typeof t === 'number' && t > 0 && t <= MAX_TIMEOUT_MS)) {
    throw invalidArgument('timeoutMs', `must be a number of ms > 0 and <= ${MAX_TIMEOUT_MS}`);
  }
  const s = options.signal;
  if (s !== undefined && !(s instanceof AbortSignal))
    throw invalidArgument('signal', 'must be an AbortSignal');
  if (options.transferList !== undefined) checkTransferList(options.transferList);
}
