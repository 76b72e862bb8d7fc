/**
 * Control words a backend worker shares with the main thread (an Int32Array over a
 * SharedArrayBuffer). A worker deep in a kernel cannot read messages, but it reads these between
 * units: that is how cancellation reaches a running split without waiting for its quantum.
 */
export const CONTROL = {
  /** Split id whose cancellation is requested; `NO_SPLIT` when none. */
  CANCEL: 0,
} as const;

export const CONTROL_WORDS = 1;
export const NO_SPLIT = -1;

export function createControl(): { buffer: SharedArrayBuffer; words: Int32Array } {
  const buffer = new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT);
  const words = new Int32Array(buffer);
  words[CONTROL.CANCEL] = NO_SPLIT;
  return { buffer, words };
}

export function isCancelRequested(words: Int32Array, splitId: number): boolean {
  return Atomics.load(words, CONTROL.CANCEL) === splitId;
}
