/**
 * The sim's worker slots: for each worker, the split it runs and how its quantum will end, in
 * parallel arrays (one store each per dispatch, no object per quantum). They grow with the worker
 * count and never shrink; a slot beyond the count keeps running its quantum out.
 */
import type { QuantumOutcome, SplitWork } from '../backend.ts';

export class SimWorkers {
  count = 0;
  readonly busy: boolean[] = [];
  /**
   * Idle worker slots as a bitset (bit w%32 of word w>>5), mirroring `busy`: the executor asks
   * for an idle worker before every dispatch, and with dozens of workers mostly busy a scan of
   * `busy` costs more than the rest of the quantum.
   */
  private readonly idleBits: number[] = [];
  /** Bumped by every (re)scheduled end, so an end event superseded by a later one is skipped. */
  readonly gen: number[] = [];
  readonly splitId: number[] = [];
  readonly startAt: number[] = [];
  /** Virtual time the quantum takes (dispatch overhead included). */
  readonly ran: number[] = [];
  /** Work it does (ns of the split's total). */
  readonly work: number[] = [];
  readonly outcome: QuantumOutcome[] = [];
  readonly blocked: number[] = [];
  /** The running dispatch's work, for `shortenQuantum`. */
  readonly workOf: (SplitWork | null)[] = [];

  /** Sets the worker count (checked by the caller), adding idle slots as needed. */
  resize(count: number): void {
    for (let w = this.busy.length; w < count; w++) {
      this.busy.push(false);
      if (w >> 5 === this.idleBits.length) this.idleBits.push(0);
      this.idleBits[w >> 5]! |= 1 << (w & 31);
      this.gen.push(0);
      this.splitId.push(-1);
      this.startAt.push(0);
      this.ran.push(0);
      this.work.push(0);
      this.outcome.push('yielded');
      this.blocked.push(0);
      this.workOf.push(null);
    }
    this.count = count;
  }

  occupy(w: number): void {
    this.busy[w] = true;
    this.idleBits[w >> 5]! &= ~(1 << (w & 31));
  }

  free(w: number): void {
    this.busy[w] = false;
    this.idleBits[w >> 5]! |= 1 << (w & 31);
  }

  /** Idle workers within the count, lowest first. */
  idle(): number[] {
    const out: number[] = [];
    const bits = this.idleBits;
    const count = this.count;
    for (let i = 0; i < bits.length; i++) {
      let word = bits[i]!;
      while (word !== 0) {
        const low = word & -word;
        const w = (i << 5) + 31 - Math.clz32(low);
        if (w >= count) return out;
        out.push(w);
        word ^= low;
      }
    }
    return out;
  }

  /** The lowest idle worker within the count, or -1. */
  firstIdle(): number {
    const bits = this.idleBits;
    for (let i = 0; i < bits.length; i++) {
      const word = bits[i]!;
      if (word === 0) continue;
      const w = (i << 5) + 31 - Math.clz32(word & -word);
      return w < this.count ? w : -1;
    }
    return -1;
  }
}
