/**
 * Control words a backend worker shares with the main thread (an Int32Array over a
 * SharedArrayBuffer). A worker deep in a kernel cannot read messages, but it reads these between
 * units: that is how cancellation reaches a running split without waiting for its quantum.
 *
 * The two ticket words make a queued dispatch (one the worker starts the moment its running
 * quantum ends, see `ThreadsBackend.enqueue`) revocable: the main thread writes the dispatch's
 * ticket into a free word before posting it, and whichever side swaps the ticket out first
 * decides — the worker to run it, the main thread to take it back. Two words, because a dispatch
 * may be queued while the previous one is still undecided (promoted by the main thread, not yet
 * claimed by the worker); each dispatch uses the word its predecessor does not.
 */
export const CONTROL = {
  /** Split id whose cancellation is requested; `NO_SPLIT` when none. */
  CANCEL: 0,
  /** Ticket words (index `TICKET + 0` and `TICKET + 1`); `NO_TICKET` when free. */
  TICKET: 1,
} as const;

export const CONTROL_WORDS = 3;
export const NO_SPLIT = -1;
export const NO_TICKET = 0;

export function createControl(): { buffer: SharedArrayBuffer; words: Int32Array } {
  const buffer = new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT);
  const words = new Int32Array(buffer);
  words[CONTROL.CANCEL] = NO_SPLIT;
  return { buffer, words };
}

export function isCancelRequested(words: Int32Array, splitId: number): boolean {
  return Atomics.load(words, CONTROL.CANCEL) === splitId;
}

/** Publishes `ticket` (> 0) in ticket word `word` (0 or 1) before its dispatch is posted. */
export function offerTicket(words: Int32Array, word: number, ticket: number): void {
  Atomics.store(words, CONTROL.TICKET + word, ticket);
}

/**
 * Decides a queued dispatch: true for the side that swaps `ticket` out of its word first (the
 * worker runs it; the main thread has taken it back), false for the other.
 */
export function takeTicket(words: Int32Array, word: number, ticket: number): boolean {
  return Atomics.compareExchange(words, CONTROL.TICKET + word, ticket, NO_TICKET) === ticket;
}

/** True while nobody has decided `ticket` yet. */
export function isTicketOpen(words: Int32Array, word: number, ticket: number): boolean {
  return Atomics.load(words, CONTROL.TICKET + word) === ticket;
}
