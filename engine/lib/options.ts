/**
 * The options of a `Scheduler` and of one `run`, their defaults and their checks (a bad value is
 * a coded error naming its field).
 */
import type { EngineConfigPatch } from '../../shared/config.ts';
import { invalidArgument, SchedLabError } from '../../shared/errors.ts';
import { MAX_CLASS_NAME, MAX_TENANT_NAME } from '../../shared/job.ts';
import { assertPriority } from '../core/priority/index.ts';
import type { ResourceLimits } from '../runtime/threads/threads-options.ts';
import { reason } from '../runtime/threads/quantum-runner.ts';
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

/**
 * The one flag of a close's options (`scheduler.close({ cancel })`, `pool.close({ force })`),
 * false when they are absent; anything else is `INVALID_ARGUMENT` naming it, before anything
 * changes (`close(null)` threw a TypeError after the scheduler had stopped taking runs).
 */
export function closeFlag(options: unknown, key: string): boolean {
  if (options === undefined) return false;
  if (options === null || typeof options !== 'object')
    throw invalidArgument('options', `must be an object: { ${key}?: boolean }`);
  checkKnownKeys(options, new Set([key]), 'a close option');
  const flag = (options as Record<string, unknown>)[key];
  if (flag !== undefined && typeof flag !== 'boolean')
    throw invalidArgument(key, 'must be true or false');
  return flag === true;
}

/** A run's options as `run` uses them: each read once, then checked. */
export interface CheckedRun {
  readonly cls: string;
  readonly priority: number;
  readonly tenant: string | undefined;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  /** A copy of the caller's list, taken before it was checked. */
  readonly transferList: readonly TransferItem[] | undefined;
}

/** `run`'s options when none are given: no object per run. */
export const NO_OPTIONS: RunOptions = Object.freeze({});
const DEFAULT_RUN: CheckedRun = Object.freeze({
  cls: 'default',
  priority: 50,
  tenant: undefined,
  signal: undefined,
  timeoutMs: undefined,
  transferList: undefined,
});

/**
 * Reads a run's options once and checks what it read (the executor checks `tenant` and
 * `priority` again). Read once: a getter read again after its check could hand `run` a value
 * never checked (a `timeoutMs` of −5 timed the run out at once). An option whose getter throws is
 * `INVALID_ARGUMENT` naming it, the thrown value as `cause`.
 */
export function checkRunOptions(options: RunOptions): CheckedRun {
  if (options === NO_OPTIONS) return DEFAULT_RUN;
  if (options === null || typeof options !== 'object')
    throw invalidArgument('options', 'must be an object');
  const o = readOptions(options);
  const cls = o.class;
  if (
    cls !== undefined &&
    (typeof cls !== 'string' || cls.length === 0 || cls.length > MAX_CLASS_NAME)
  ) {
    throw invalidArgument('class', `must be a string of 1 to ${MAX_CLASS_NAME} characters`);
  }
  if (o.priority !== undefined) assertPriority(o.priority as number, 'priority');
  const tenant = o.tenant;
  if (
    tenant !== undefined &&
    (typeof tenant !== 'string' || tenant.length === 0 || tenant.length > MAX_TENANT_NAME)
  ) {
    throw invalidArgument('tenant', `must be a string of 1 to ${MAX_TENANT_NAME} characters`);
  }
  const t = o.timeoutMs;
  if (t !== undefined && !(typeof t === 'number' && t > 0 && t <= MAX_TIMEOUT_MS)) {
    throw invalidArgument('timeoutMs', `must be a number of ms > 0 and <= ${MAX_TIMEOUT_MS}`);
  }
  const s = o.signal;
  if (s !== undefined && !(s instanceof AbortSignal))
    throw invalidArgument('signal', 'must be an AbortSignal');
  if (o.transferList !== undefined) checkTransferList(o.transferList);
  return {
    cls: cls ?? 'default',
    priority: (o.priority as number | undefined) ?? 50,
    tenant,
    signal: s,
    timeoutMs: t,
    transferList: o.transferList as readonly TransferItem[] | undefined,
  };
}

/** Every option read once (a list copied), unchecked; a getter that throws names its option. */
function readOptions(options: RunOptions): { -readonly [K in keyof RunOptions]: unknown } {
  let field = 'options';
  try {
    checkKnownKeys(options, RUN_OPTIONS, 'a run option');
    field = 'transferList';
    const list: unknown = options.transferList;
    const copy = Array.isArray(list) ? [...(list as unknown[])] : list;
    field = 'class';
    const cls = options.class;
    field = 'priority';
    const priority = options.priority;
    field = 'tenant';
    const tenant = options.tenant;
    field = 'timeoutMs';
    const timeoutMs = options.timeoutMs;
    field = 'signal';
    const signal = options.signal;
    return { class: cls, priority, tenant, timeoutMs, signal, transferList: copy };
  } catch (e) {
    if (e instanceof SchedLabError) throw e;
    const error = invalidArgument(field, `could not be read: ${reason(e)}`);
    error.cause = e;
    throw error;
  }
}
