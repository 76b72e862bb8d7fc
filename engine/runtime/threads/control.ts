/**
 * Control words a backend worker shares with the main thread (an Int32Array over a
 * SharedArrayBuffer). A worker deep in a kernel cannot read messages, but it reads these between
 * units: that is how cancellation reaches a running split without waiting for its quantum.
 *
 * The ticket words make a queued dispatch (one the worker starts as soon as the quanta before it
 * end, see `ThreadsBackend.enqueue`) revocable: the main thread writes the dispatch's ticket into
 * a free word before posting it, and whichever side swaps the ticket out first decides — the
 * worker to run it, the main thread to take it back. A worker holds up to `MAX_QUEUED` dispatches
 * queued, and the dispatch running may still be undecided (promoted by the main thread, not yet
 * claimed by the worker): at most `MAX_QUEUED` + 1 tickets are open, so of the `TICKET_WORDS`
 * one is always free for a new dispatch (pool-worker.ts `freeWord` takes the next free one). A
 * worker that finds another value in its ticket's word was taken back: values are never reused
 * while open.
 *
 * The two cut words shorten a running quantum (`ThreadsBackend.shortenQuantum`, e.g. when the
 * operator leaves non-preemptive priority, whose quanta would otherwise run to completion): the
 * worker, between units, ends its quantum as a normal yield once it has run as long as the cut
 * allows. The cut names its split, so a stale one never touches the quantum that runs next.
 */
export const CONTROL = {
  /** Split id whose cancellation is requested; `NO_SPLIT` when none. */
  CANCEL: 0,
  /** Split id whose running quantum is cut; `NO_SPLIT` when none. */
  CUT_SPLIT: 1,
  /** The cut: how long (µs from the quantum's start) that quantum may run at most. */
  CUT_MICROS: 2,
  /** Ticket words (`TICKET + 0` … `TICKET + TICKET_WORDS − 1`); `NO_TICKET` when free. */
  TICKET: 3,
} as const;

/** Dispatches a busy worker may hold queued behind its running one (the executor's batch). */
export const MAX_QUEUED = 254;
export const TICKET_WORDS = MAX_QUEUED + 2;
export const CONTROL_WORDS = CONTROL.TICKET + TICKET_WORDS;
export const NO_SPLIT = -1;
export const NO_TICKET = 0;

export function createControl(): { buffer: SharedArrayBuffer; words: Int32Array } {
  const buffer = new SharedArrayBuffer(CONTROL_WORDS * Int32Array.BYTES_PER_ELEMENT);
  const words = new Int32Array(buffer);
  words[CONTROL.CANCEL] = NO_SPLIT;
  words[CONTROL.CUT_SPLIT] = NO_SPLIT;
  return { buffer, words };
}

export function isCancelRequested(words: Int32Array, splitId: number): boolean {
  return Atomics.load(words, CONTROL.CANCEL) === splitId;
}

/** Publishes `ticket` (> 0) in ticket word `word` (< `TICKET_WORDS`) before its dispatch is posted. */
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

/** True when ticket word `word` holds no open ticket (its last one was decided). */
export function isTicketFree(words: Int32Array, word: number): boolean {
  return Atomics.load(words, CONTROL.TICKET + word) === NO_TICKET;
}

/** True while nobody has decided `ticket` yet. */
export function isTicketOpen(words: Int32Array, word: number, ticket: number): boolean {
  return Atomics.load(words, CONTROL.TICKET + word) === ticket;
}

/**
 * Cuts `splitId`'s running quantum to at most `nanos` from its start (whole µs, rounded down;
 * an earlier, shorter cut of the same split stays). Only the main thread writes the cut words,
 * and it cuts only the split it knows the worker is running, so the worker never reads one
 * split's id with another's length.
 */
export function cutQuantum(words: Int32Array, splitId: number, nanos: number): void {
  let micros = Math.min(0x7fffffff, Math.max(0, Math.floor(nanos / 1000)));
  if (Atomics.load(words, CONTROL.CUT_SPLIT) === splitId) {
    micros = Math.min(micros, Atomics.load(words, CONTROL.CUT_MICROS));
  }
  // Length first: a worker that sees the id reads a length meant for it.
  Atomics.store(words, CONTROL.CUT_MICROS, micros);
  Atomics.store(words, CONTROL.CUT_SPLIT, splitId);
}

/** How long (ns) `splitId`'s running quantum may run at most by its cut; Infinity when uncut. */
export function quantumCut(words: Int32Array, splitId: number): number {
  if (Atomics.load(words, CONTROL.CUT_SPLIT) !== splitId) return Infinity;
  return Atomics.load(words, CONTROL.CUT_MICROS) * 1000;
}

/** Forgets `splitId`'s cut (its quantum has ended), so its next quantum runs in full. */
export function clearCut(words: Int32Array, splitId: number): void {
  Atomics.compareExchange(words, CONTROL.CUT_SPLIT, splitId, NO_SPLIT);
}
