/**
 * The short texts a job row carries about an ended job: its failure reason, and what a one-split
 * user-module job returned, as JSON. Both are cut to `JOB_ROW_TEXT_MAX` so rows stay small however
 * large a result or message is. The job detail's reason is longer (`JOB_ERROR_TEXT_MAX`).
 */
import { JOB_ROW_TEXT_MAX } from '../../../shared/protocol.ts';
import { jsonHead } from './json-head.ts';

/**
 * Longest failure reason a job detail carries (`JobDetail.job.error`): a thrown `Error`'s name (200)
 * and message (2,000, the worker's own cut, threads/quantum-runner.ts) whole, with `split N: `
 * before them for a job of several splits. Only the last `recentJobs` jobs that did not succeed
 * keep one (job-book.ts).
 */
export const JOB_ERROR_TEXT_MAX = 2_300;

/** Longest thrown `code` a row carries (`JobRow.causeCode`). */
export const CAUSE_CODE_MAX = 64;

/**
 * `text` cut to `max` characters, the last one `…` when something was cut. The cut is a copy: V8
 * makes a long enough `slice` a view of the whole string, so a row kept in a ring would keep a
 * megabyte result's whole JSON alive for the sake of its first 200 characters.
 */
export function clip(text: string, max = JOB_ROW_TEXT_MAX): string {
  return text.length <= max ? text : Buffer.from(`${text.slice(0, max - 1)}…`).toString();
}

/**
 * A result as JSON, at most `max` characters. Results arrive by structured clone, so they may
 * hold what JSON cannot: a BigInt reads `"<digits>n"`, a cycle as far as the row goes; what JSON
 * writes nothing for reads as `String(value)`, never an exception in the frame loop.
 */
export function resultText(value: unknown, max = JOB_ROW_TEXT_MAX): string {
  // A finite number is its own JSON, without the replacer call JSON.stringify makes per value
  // (a service's tiny tasks often return one; this runs once per job end).
  if (typeof value === 'number' && Number.isFinite(value)) return clip(String(value), max);
  if (typeof value === 'bigint') return clip(`"${bigintHead(value, max)}n"`, max);
  let text: string | undefined;
  try {
    // Written only as far as the row shows: a result of megabytes is not turned into JSON whole.
    text = jsonHead(value, max);
  } catch {
    text = undefined;
  }
  if (text === undefined) {
    try {
      text = String(value);
    } catch {
      text = '(result cannot be shown)';
    }
  }
  return clip(text, max);
}

/** Powers of ten by exponent, for `bigintHead` (a service returns numbers of a few sizes). */
const powers = new Map<number, bigint>();
const MAX_POWERS = 32;
const LOG10_2 = Math.log10(2);

/**
 * `String(value)`, or, when that is longer than a row can show, text that `clip` cuts the same
 * way: the leading digits only, without turning the whole number into decimal (quadratic in its
 * length: a 2,568-digit factorial took a quarter of the main thread's time for its job row).
 */
function bigintHead(value: bigint, max: number): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const hexDigits = abs.toString(16).length; // linear, unlike decimal
  // abs ≥ 16^(hexDigits − 1), so it has at least this many decimal digits.
  const fewest = Math.floor((hexDigits - 1) * 4 * LOG10_2) + 1;
  const keep = max; // more than `clip` leaves of the quoted text
  if (fewest <= keep + 1) return String(value);
  const drop = fewest - keep - 1;
  let power = powers.get(drop);
  if (power === undefined) {
    power = 10n ** BigInt(drop);
    if (powers.size >= MAX_POWERS) powers.clear();
    powers.set(drop, power);
  }
  // Dividing off trailing digits keeps the leading ones exactly; at least keep + 1 remain, so the
  // text still overflows `max` and `clip` cuts it where it would have cut the whole number.
  const head = String(abs / power);
  return negative ? `-${head}` : head;
}
