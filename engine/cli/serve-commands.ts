/**
 * `schedlab serve` takes protocol commands on stdin, one a line, so a live session can be driven
 * from the terminal or a script as the app drives it: a JSON command (`{"type": "setPolicy",
 * "policy": "fifo"}`) or a bare command name for those without fields (`cancelAll`,
 * `resetStats`, `pause`, `resume`). Each answer is printed as one JSON line.
 */
import type { CommandResult } from '../../shared/protocol.ts';

export type CommandHandler = (command: unknown) => Promise<CommandResult>;

/** A line that starts as JSON but does not parse: answered here, naming where it broke. */
class NotJson {
  constructor(readonly why: string) {}
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
  lines: AsyncIterable<string>,
  handle: CommandHandler,
  out: (text: string) => void,
): Promise<void> {
  for await (const line of lines) {
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
