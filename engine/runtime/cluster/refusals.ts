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

/**
 * A trouble that goes on (writes refused, Redis away): counted, and due to be said when it starts
 * and then at most every `REPEAT_MS` while it lasts. `Refusals` and `Outage` say theirs with it.
 */
class Spell {
  private since: number | null = null;
  private saidAt = 0;
  count = 0;

  constructor(private readonly now: () => number) {}

  get active(): boolean {
    return this.since !== null;
  }

  /** One more occurrence: true when it is due to be said now. */
  occurred(): boolean {
    this.count++;
    const now = this.now();
    if (this.since === null) this.since = now;
    else if (now - this.saidAt < REPEAT_MS) return false;
    this.saidAt = now;
    return true;
  }

  /** How long (ms) it has gone on so far; 0 when it is not under way. */
  lasted(): number {
    return this.since === null ? 0 : this.now() - this.since;
  }

  /** It ended: how many times it occurred and for how long (ms), or null if none was under way. */
  end(): { count: number; ms: number } | null {
    if (this.since === null) return null;
    const ended = { count: this.count, ms: this.lasted() };
    this.since = null;
    this.count = 0;
    return ended;
  }
}

export class Refusals {
  private first: string | null = null;
  private readonly spell: Spell;

  constructor(
    /** Where writes go, as said (a Redis URL without its password). */
    private readonly display: string,
    /** `refused`: a line while writes are refused; `accepted`: they are taken again. */
    private readonly say: (line: string, state: 'refused' | 'accepted') => void,
    now: () => number = Date.now,
  ) {
    this.spell = new Spell(now);
  }

  /** A write failed with `e`: true when Redis refused it (an error reply), which then counts. */
  failed(e: unknown): boolean {
    const why = refusalOf(e);
    if (why === null) return false;
    this.refused(why);
    return true;
  }

  /** Redis refused a write, saying `why`. */
  refused(why: string): void {
    this.first ??= why;
    if (this.spell.occurred()) this.say(this.text()!, 'refused');
  }

  /** A write was taken: a refusal under way has ended. */
  succeeded(): void {
    const ended = this.spell.end();
    if (ended === null) return;
    this.first = null;
    this.say(`Redis at ${this.display} takes writes again (${ended.count} refused)`, 'accepted');
  }

  /** Whether writes are being refused now (the last write was). */
  get refusing(): boolean {
    return this.spell.active;
  }

  /** What is going on while writes are refused, else null. */
  text(): string | null {
    if (this.first === null) return null;
    return `Redis at ${this.display} refused a write: ${this.first} (every write since is refused; ${this.spell.count} so far)`;
  }
}

/**
 * A node's connection errors while Redis is away: said when the outage starts, then at most every
 * `REPEAT_MS` with a count, and once when Redis is back. BullMQ's worker reports each reconnect's
 * failure: `connect ECONNREFUSED` twice a second for the whole outage (63 lines in 30 s), and
 * nothing when it ended.
 */
export class Outage {
  private readonly spell: Spell;

  constructor(
    private readonly display: string,
    private readonly say: (line: string) => void,
    now: () => number = Date.now,
  ) {
    this.spell = new Spell(now);
  }

  /** A connection to Redis failed with `message`. */
  failed(message: string): void {
    if (!this.spell.occurred()) return;
    const { count } = this.spell;
    const seconds = Math.round(this.spell.lasted() / 1000);
    this.say(count === 1 ? message : `${message} (away ${seconds} s, ${count} failed tries)`);
  }

  /** Connected again: an outage under way has ended. */
  ended(): void {
    const ended = this.spell.end();
    if (ended === null) return;
    this.say(`Redis at ${this.display} is back after ${Math.round(ended.ms / 1000)} s`);
  }
}
