/**
 * `schedlab serve` takes protocol commands on stdin, one a line, so a live session can be driven
 * from the terminal or a script as the app drives it: a JSON command (`{"type": "setPolicy",
 * "policy": "fifo"}`) or a bare command name for those without fields (`cancelAll`,
 * `resetStats`, `pause`, `resume`). Each answer is printed as one JSON line. A line is at most
 * `MAX_MESSAGE_BYTES`, as a WebSocket message: a longer one is answered `MESSAGE_TOO_LARGE` and
 * skipped to its end without being kept (readline kept it all: `/dev/zero` on stdin crashed the
 * server within seconds, holding 800 MB).
 */
import type { CommandResult } from '../../shared/protocol.ts';
import { MAX_MESSAGE_BYTES } from '../host/server/server.ts';

export type CommandHandler = (command: unknown) => Promise<CommandResult>;

/** A line that starts as JSON but does not parse: answered here, naming where it broke. */
class NotJson {
  constructor(readonly why: string) {}
}

/** A line longer than the limit, skipped: how many bytes it had (counted up to its end). */
export class LineTooLong {
  constructor(readonly bytes: number) {}
}

/**
 * `input`'s lines (UTF-8, `\n`-ended, a trailing `\r` kept for `trim`), each at most `maxBytes`;
 * a longer one is a `LineTooLong`, and none of it is held past the limit.
 */
export async function* boundedLines(
  input: AsyncIterable<Buffer | string>,
  maxBytes = MAX_MESSAGE_BYTES,
): AsyncGenerator<string | LineTooLong> {
  let parts: Buffer[] = [];
  let held = 0;
  let over = 0; // bytes of a line past the limit so far (0: within it)
  for await (const chunk of input) {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let nl = data.indexOf(10); ; nl = data.indexOf(10)) {
      const piece = nl < 0 ? data : data.subarray(0, nl);
      if (over > 0 || held + piece.length > maxBytes) {
        over = (over > 0 ? over : held) + piece.length;
        parts = [];
        held = 0;
      } else if (piece.length > 0) {
        parts.push(piece);
        held += piece.length;
      }
      if (nl < 0) break;
      yield over > 0 ? new LineTooLong(over) : Buffer.concat(parts).toString('utf8');
      parts = [];
      held = 0;
      over = 0;
      data = data.subarray(nl + 1);
    }
  }
  if (over > 0) yield new LineTooLong(over);
  else if (held > 0) yield Buffer.concat(parts).toString('utf8');
}

/** The command a line says, or null for a blank line. */
export function commandOfLine(line: string): unknown {
  const text = line.trim();
  if (text === '') return null;
  if (!text.startsWith('{')) return { type: text };
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    return new NotJson((e as Error).message);
  }
}

/** Applies each line's command in order and writes each answer; resolves when input ends. */
export async function driveFromLines(
  lines: AsyncIterable<string | LineTooLong>,
  handle: CommandHandler,
  out: (text: string) => void,
): Promise<void> {
  for await (const line of lines) {
    if (line instanceof LineTooLong) {
      const error = {
        code: 'MESSAGE_TOO_LARGE',
        message: `a line of ${line.bytes} bytes is over the limit of ${MAX_MESSAGE_BYTES} bytes; skipped`,
        field: 'line',
      };
      out(`${JSON.stringify({ ok: false, error })}\n`);
      continue;
    }
    const command = commandOfLine(line);
    if (command === null) continue;
    if (command instanceof NotJson) {
      const error = {
        code: 'BAD_MESSAGE',
        message: `not valid JSON: ${command.why}`,
        field: 'line',
      };
      out(`${JSON.stringify({ ok: false, error })}\n`);
      continue;
    }
    out(`${JSON.stringify(await handle(command))}\n`);
  }
}
