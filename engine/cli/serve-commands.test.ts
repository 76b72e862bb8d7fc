// A live session driven from `schedlab serve`'s stdin: cancelAll and resetStats by name, any
// command as JSON, each answered on one line.
import { describe, expect, it } from 'vitest';
import { intermediates, oneTaskJob, spin } from '../runtime/executor/testing.ts';
import { Session } from '../host/session/index.ts';
import { driveFromLines } from './serve-commands.ts';

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
});
