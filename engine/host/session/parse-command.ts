/**
 * Command validation (docs/design.md §6): a message is checked against the zod schemas of
 * shared/protocol.ts before anything acts on it. Not an object or no `type` → `BAD_MESSAGE`;
 * an unknown `type` → `UNKNOWN_COMMAND`; a known command of the wrong shape → `BAD_MESSAGE`
 * naming the field (`cancelJob`'s `jobId`); a bad job in `submitJob` → `INVALID_ARGUMENT`, as the
 * executor says it, naming the field (`job.tasks[0].splits`); a `configure` value out of range → `INVALID_CONFIG`
 * naming the config field (`levelTimeMultiplier`); a `compare` column's bad value likewise names
 * its column (`configs[1].levelTimeMultiplier`).
 */
import { commandSchemas, type Command, type CommandType } from '../../../shared/protocol.ts';
import { SchedLabError, isSchedLabError, type ErrorInfo } from '../../../shared/errors.ts';
import { zodToError } from '../../runtime/executor/index.ts';

export function parseCommand(msg: unknown): Command {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    throw new SchedLabError('BAD_MESSAGE', 'a command must be a JSON object', 'type');
  }
  const type = (msg as { type?: unknown }).type;
  if (typeof type !== 'string') {
    throw new SchedLabError('BAD_MESSAGE', 'type must be a string naming a command', 'type');
  }
  if (!Object.hasOwn(commandSchemas, type)) {
    // Clipped: the refusal of a 16 MiB type would otherwise carry it all back.
    const name = type.length > 64 ? `${type.slice(0, 64)}…` : type;
    throw new SchedLabError('UNKNOWN_COMMAND', `type: no command named '${name}'`, 'type');
  }
  const schema = commandSchemas[type as CommandType];
  const parsed = schema.safeParse(msg);
  if (parsed.success) return parsed.data as Command;
  const issue = parsed.error.issues[0];
  const unknownKey = issue?.code === 'unrecognized_keys';
  if (
    (type === 'configure' || type === 'configureGraph') &&
    issue &&
    issue.path[0] === 'config' &&
    (issue.path.length > 1 || unknownKey)
  ) {
    throw zodToError(
      { ...parsed.error, issues: [{ ...issue, path: issue.path.slice(1) }] } as typeof parsed.error,
      'INVALID_CONFIG',
    );
  }
  // A compare column's bad value is a config error too, named by its column (`configs[1].quantumMs`).
  if (
    type === 'compare' &&
    issue &&
    issue.path[0] === 'configs' &&
    (issue.path.length > 2 || (unknownKey && issue.path.length === 2))
  ) {
    throw zodToError(parsed.error, 'INVALID_CONFIG');
  }
  // A bad job is the fault the executor's `submitJob` reports for the same spec (shared/job.ts).
  if (
    type === 'submitJob' &&
    issue &&
    issue.path[0] === 'job' &&
    (issue.path.length > 1 || unknownKey)
  ) {
    throw zodToError(parsed.error, 'INVALID_ARGUMENT');
  }
  throw zodToError(parsed.error, 'BAD_MESSAGE');
}

/** The wire form of any error: coded errors as they are, anything else as a bug report. */
export function errorInfo(e: unknown): ErrorInfo {
  if (isSchedLabError(e)) return e.toInfo();
  return { code: 'INVALID_ARGUMENT', message: e instanceof Error ? e.message : String(e) };
}

/** The `id` a result echoes, when the message carried a valid one. */
export function commandId(msg: unknown): string | number | undefined {
  if (msg === null || typeof msg !== 'object') return undefined;
  const id = (msg as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
