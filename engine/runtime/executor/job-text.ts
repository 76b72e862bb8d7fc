/**
 * The short texts a job row carries about an ended job: its failure reason, and what a one-split
 * user-module job returned, as JSON. Both are cut to `JOB_ROW_TEXT_MAX` so rows stay small however
 * large a result or message is.
 */
import { JOB_ROW_TEXT_MAX } from '../../../shared/protocol.ts';

/** `text` cut to `max` characters, the last one `…` when something was cut. */
export function clip(text: string, max = JOB_ROW_TEXT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * A result as JSON, at most `max` characters. Results arrive by structured clone, so they may
 * hold what JSON cannot (a BigInt, a cycle, a Map): those render as `String(value)` or a note,
 * never an exception in the frame loop.
 */
export function resultText(value: unknown, max = JOB_ROW_TEXT_MAX): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
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
