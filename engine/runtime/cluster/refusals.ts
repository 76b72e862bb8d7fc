/**
 * Redis answering a write with an error (`OOM command not allowed` under `maxmemory` with
 * `noeviction`, `READONLY` on a replica, `NOAUTH`…): unlike an outage, Redis is there and says
 * no, and waiting does not cure it. Every such refusal is counted; it is said once when it starts,
 * again at most every `REPEAT_MS` with the count while it goes on, and once more when a write is
 * taken again. Before, a coordinator retried a refused dispatch every 100 ms and a node its
 * heartbeat every second, both in silence, and the run stalled with nothing said.
 */

/** While writes keep being refused, the line is said again at most this often (ms). */
export const REPEAT_MS = 10_000;

/** The error reply Redis gave `e` (the first command's, for a refused `MULTI`), or null. */
export function refusalOf(e: unknown): string | null {
  if (!(e instanceof Error) || e.name !== 'ReplyError') return null;
  // A transaction with a refused command fails as a whole: EXECABORT names no reason, the
  // command's own reply does.
  const previous = (e as { previousErrors?: unknown }).previousErrors;
  if (Array.isArray(previous) && previous[0] instanceof Error) return previous[0].message;
  return e.message;
}

/** The first reply among the results of a pipeline's `exec` that is an error, or null. */
export function pipelineRefusal(results: [Error | null, unknown][] | null): string | null {
  for (const [error] of results ?? []) {
    const why = refusalOf(error);
    if (why !== null) return why;
  }
  return null;
}

export class Refusals {
  private first: string | null = null;
  private count = 0;
  private saidAt = 0;

  constructor(
    /** Where writes go, as said (a Redis URL without its password). */
    private readonly display: string,
    /** `refused`: a line while writes are refused; `accepted`: they are taken again. */
    private readonly say: (line: string, state: 'refused' | 'accepted') => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A write failed with `e`: true when Redis refused it (an error reply), which then counts. */
  failed(e: unknown): boolean {
    const why = refusalOf(e);
    if (why === null) return false;
    this.refused(why);
    return true;
  }

  /** Redis refused a write, saying `why`. */
  refused(why: string): void {
    this.count++;
    const now = this.now();
    if (this.first === null) this.first = why;
    else if (now - this.saidAt < REPEAT_MS) return;
    this.saidAt = now;
    this.say(this.text()!, 'refused');
  }

  /** A write was taken: a refusal under way has ended. */
  succeeded(): void {
    if (this.first === null) return;
    const n = this.count;
    this.first = null;
    this.count = 0;
    this.say(`Redis at ${this.display} takes writes again (${n} refused)`, 'accepted');
  }

  /** Whether writes are being refused now (the last write was). */
  get refusing(): boolean {
    return this.first !== null;
  }

  /** What is going on while writes are refused, else null. */
  text(): string | null {
    if (this.first === null) return null;
    return `Redis at ${this.display} refused a write: ${this.first} (every write since is refused; ${this.count} so far)`;
  }
}

/**
 * A node's connection errors while Redis is away: said when the outage starts, then at most every
 * `REPEAT_MS` with a count, and once when Redis is back. BullMQ's worker reports each reconnect's
 * failure: `connect ECONNREFUSED` twice a second for the whole outage (63 lines in 30 s), and
 * nothing when it ended.
 */
export class Outage {
  private since: number | null = null;
  private count = 0;
  private saidAt = 0;

  constructor(
    private readonly display: string,
    private readonly say: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** A connection to Redis failed with `message`. */
  failed(message: string): void {
    this.count++;
    const now = this.now();
    if (this.since === null) this.since = now;
    else if (now - this.saidAt < REPEAT_MS) return;
    this.saidAt = now;
    const seconds = Math.round((now - this.since) / 1000);
    const lasting = this.count === 1 ? '' : ` (away ${seconds} s, ${this.count} failed tries)`;
    this.say(`${message}${lasting}`);
  }

  /** Connected again: an outage under way has ended. */
  ended(): void {
    if (this.since === null) return;
    const seconds = Math.round((this.now() - this.since) / 1000);
    this.since = null;
    this.count = 0;
    this.say(`Redis at ${this.display} is back after ${seconds} s`);
  }
}
