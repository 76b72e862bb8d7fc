import { SchedLabError } from '../../shared/errors.ts';

/**
 * Bad command-line input: `INVALID_USAGE`, exit code 2 with a one-line message (no stack);
 * `field` is the flag or argument at fault (`--seed`, `workload`, `command`).
 */
export class UsageError extends SchedLabError {
  constructor(message: string, field?: string) {
    super('INVALID_USAGE', message, field);
    this.name = 'UsageError';
  }
}
