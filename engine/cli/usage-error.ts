/** Bad command-line input: exit code 2 with a one-line message (no stack). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
