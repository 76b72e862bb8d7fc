// A live session driven from `schedlab serve`'s stdin: cancelAll and resetStats by name, any
// command as JSON, each answered on one line.
import { describe, expect, it } from 'vitest';
import { intermediates, oneTaskJob, spin } from '../runtime/executor/testing.ts';
import { Session } from '../host/session/index.ts';
import { Readable } from 'node:stream';
import { boundedLines, driveFromLines, LineTooLong } from './serve-commands.ts';

async function* linesOf(...lines: string[]): AsyncIterable<string> {
  for (const line of lines) yield line;
}

describe('serve commands on stdin', () => {
  it('cancels every live job, resets the tables, applies JSON commands, refuses bad ones', async () => {
    const s = new Session({ config: { workers: 2, quantumMs: 10 } });
    for (let j = 0; j < 3; j++) s.executor.submitJob(oneTaskJob('a', intermediates(2, spin(500))));
    s.advance(50);
    let out = '';
    await driveFromLines(
      linesOf(
        'cancelAll',
        '',
        ' resetStats ',
        '{"type":"setPolicy","policy":"fifo"}',
        'teleport',
        '{oops',
      ),
      (command) => s.handleCommand(command),
      (text) => (out += text),
    );
    const answers = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(answers).toHaveLength(5);
    expect(answers[0]).toEqual({ ok: true, cancelled: 3 });
    expect(answers[1]).toEqual({ ok: true });
    expect(answers[2]).toMatchObject({ ok: true, policy: 'fifo' });
    expect(answers[3]).toMatchObject({ ok: false, error: { code: 'UNKNOWN_COMMAND' } });
    expect(answers[4]).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_MESSAGE',
        message: expect.stringMatching(/^not valid JSON: /),
        field: 'line',
      },
    });
    expect(s.executor.counters.live).toBe(0);
    await s.close();
  });

  it('skips a line over the limit, keeping none of it, and reads on', async () => {
    // /dev/zero on stdin: readline kept the endless line until the server crashed.
    const chunks = ['{"type":', '"pause"}\r\nre', 'sume\n', 'x'.repeat(300), 'y'.repeat(300), '\n'];
    chunks.push('é'.repeat(10), '\n', 'z'.repeat(2000)); // multi-byte text across chunks; no end
    const got: (string | number)[] = [];
    for await (const line of boundedLines(Readable.from(chunks.map((c) => Buffer.from(c))), 512)) {
      got.push(line instanceof LineTooLong ? line.bytes : line);
    }
    expect(got).toEqual(['{"type":"pause"}\r', 'resume', 600, 'é'.repeat(10), 2000]);

    let out = '';
    await driveFromLines(
      boundedLines(Readable.from(['x'.repeat(20 << 20), '\n', 'teleport\n'])),
      (command) =>
        Promise.resolve({
          ok: false,
          error: { code: 'UNKNOWN_COMMAND', message: String((command as { type: string }).type) },
        }),
      (text) => (out += text),
    );
    const answers = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { error: object });
    expect(answers[0]?.error).toMatchObject({
      code: 'MESSAGE_TOO_LARGE',
      field: 'line',
      message: `a line of ${20 << 20} bytes is over the limit of ${16 << 20} bytes; skipped`,
    });
    expect(answers[1]?.error).toMatchObject({ message: 'teleport' });
  });
});
