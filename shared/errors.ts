/**
 * The one catalogue of error codes. Every error a user can see carries a code from here, a
 * message that names the offending parameter, and (when there is one) the field path.
 */
export const ERROR_CODES = {
  INVALID_CONFIG: 'a configuration value is out of range or malformed',
  INVALID_ARGUMENT: 'an argument to an engine call is out of range or malformed',
  DUPLICATE_ID: 'an id is already in use',
  UNKNOWN_ID: 'no such job, task, split or node',
  QUEUE_FULL: 'the bounded queue is at its limit',
  ILLEGAL_TRANSITION: 'a lifecycle transition that the state machine does not allow',
  INVALID_WORKLOAD: 'a workload document does not match its schema',
  INVALID_GRAPH: 'a graph is empty, cyclic or names unknown nodes',
  UNKNOWN_PRESET: 'no preset has that name',
  UNKNOWN_COMMAND: 'a protocol message names no known command',
  BAD_MESSAGE: 'a protocol message does not match its schema',
  UNKNOWN_KERNEL: 'no kernel is registered under that name',
  WORKER_LOST: 'a worker thread died while running a split',
  KERNEL_FAILED: 'a kernel or user module threw',
  QUANTUM_OVERRUN_KILLED:
    'a quantum overran past hardKillAfterMs (or did not stop after its cancel): its worker was terminated',
  INTERRUPTED:
    'a running split was interrupted on request (interruptSplit): its quantum was stopped (threads: its worker terminated and replaced)',
  CANCELLED: 'the job was cancelled',
  TIMEOUT: 'the job did not end within its timeoutMs and was cancelled',
  READ_ONLY: 'an attached console is read-only unless the service allows control',
  ENGINE_CLOSED: 'the engine has been shut down',
  UNAUTHORIZED:
    'the request carries no token, or not the one this server was started with (HTTP 401: a restarted server has a new token unless it keeps one)',
  CLUSTER_UNAVAILABLE: 'Redis or the worker nodes of a cluster run cannot be reached',
  MESSAGE_TOO_LARGE: 'a protocol message is over the size limit (the connection then closes)',
  CLIENT_TOO_SLOW: 'a client left more unread replies than its byte budget (it is disconnected)',
  TOO_MANY_COMMANDS: 'a client sent a command while too many of its commands were unanswered',
  TOO_MANY_CLIENTS: 'the server already holds its most client connections (it refuses more)',
  MODULE_NOT_ALLOWED:
    'a user module lies outside the directories the operator allowed, or no cluster node runs user modules (--modules)',
  MODULE_UNLOADABLE: 'a user module cannot be found, loaded, or lacks the named export',
  INVALID_USAGE:
    'the schedlab command line is wrong: an unknown command or flag, a flag value out of range or malformed, or a file it names that cannot be used',
  TIME_LIMIT: 'a schedlab run passed its --time-limit of wall time and was stopped',
  ENGINE_FAILURE:
    'the engine failed in a way no other code names (a bug: the message says what broke)',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Wire shape of an error (docs/design.md §6): `{code, message, field?}`. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  field?: string;
}

export class SchedLabError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'SchedLabError';
    this.code = code;
    this.field = field;
  }

  toInfo(): ErrorInfo {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}

/** Shorthand for the most common case: a config field out of range. */
export function invalidConfig(field: string, requirement: string): SchedLabError {
  return new SchedLabError('INVALID_CONFIG', `${field} ${requirement}`, field);
}

/** The same for a bad argument of a call (a run's task or options): `INVALID_ARGUMENT`. */
export function invalidArgument(field: string, requirement: string): SchedLabError {
  return new SchedLabError('INVALID_ARGUMENT', `${field} ${requirement}`, field);
}

export function isSchedLabError(e: unknown): e is SchedLabError {
  return e instanceof SchedLabError;
}
