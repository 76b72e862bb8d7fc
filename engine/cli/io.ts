/** Where the CLI writes; tests pass their own to capture output in-process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** Whether stderr is a terminal (progress lines are drawn there). */
  readonly errIsTty: boolean;
  /** Wall-clock ms for `--time-limit` (`performance.now` unless a test gives its own). */
  readonly now?: () => number;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  errIsTty: process.stderr.isTTY === true,
};

/** An io that keeps what is written (in-process runs, tests); `errIsTty` picks the progress form. */
export function memoryIo(
  errIsTty = false,
): CliIo & { readonly text: { out: string; err: string } } {
  const text = { out: '', err: '' };
  return {
    out: (t) => (text.out += t),
    err: (t) => (text.err += t),
    errIsTty,
    text,
  };
}
