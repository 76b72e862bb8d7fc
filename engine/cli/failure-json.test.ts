// Every way a command fails carries its code: in the one line on stderr, and with --json as one
// JSON object on stdout ({"error": {code, message, field?}}, the protocol's error shape).
import { describe, expect, it } from 'vitest';
import { runCli, tmpFile } from './cli-testing.ts';

/** The object a failed `--json` command printed, checked to be the only thing on stdout. */
function errorOf(out: string): { code: string; message: string; field?: string } {
  const parsed = JSON.parse(out) as { error: { code: string; message: string; field?: string } };
  expect(Object.keys(parsed)).toEqual(['error']);
  return parsed.error;
}

describe('a failed command says its code', () => {
  it('usage errors carry INVALID_USAGE in the line on stderr', async () => {
    for (const argv of [
      ['frobnicate'],
      [],
      ['run', 'interactive-vs-scan', '--bogus'],
      ['run', 'interactive-vs-scan', '--seed', 'x'],
      ['run', 'no-such-preset'],
    ]) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(/^schedlab: .* \(INVALID_USAGE\)\n$/);
      expect(r.out, argv.join(' ')).toBe('');
    }
  });

  it('with --json, one object on stdout names the code, the message and the flag', async () => {
    const cases: [string[], string | undefined][] = [
      [['run', 'interactive-vs-scan', '--json', '--bogus'], '--bogus'],
      [['run', 'interactive-vs-scan', '--json', '--seed', 'x'], '--seed'],
      [['run', 'interactive-vs-scan', '--json', '--duration', 'soon'], '--duration'],
      [['run', 'interactive-vs-scan', '--json', '--policy', 'random'], '--policy'],
      [['run', 'no-such-preset', '--json'], 'workload'],
      [['compare', 'interactive-vs-scan', '--json', '--policy', 'mlfq'], '--policy'],
      [['presets', '--json', 'extra'], undefined],
    ];
    for (const [argv, field] of cases) {
      const r = await runCli(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      const error = errorOf(r.out);
      expect(error.code, argv.join(' ')).toBe('INVALID_USAGE');
      expect(r.err, argv.join(' ')).toBe(`schedlab: ${error.message} (INVALID_USAGE)\n`);
      expect(error.field, argv.join(' ')).toBe(field);
    }
  });

  it('an unknown command with --json answers in JSON too', async () => {
    const r = await runCli(['frobnicate', '--json']);
    expect(r.code).toBe(2);
    expect(errorOf(r.out)).toMatchObject({ code: 'INVALID_USAGE', field: 'command' });
  });

  it('an engine-side refusal keeps its own code and field, with the same exit code', async () => {
    const r = await runCli(['run', 'interactive-vs-scan', '--json', '--set', 'workers=0']);
    expect(r.code).toBe(2);
    expect(errorOf(r.out)).toEqual({
      code: 'INVALID_CONFIG',
      message: 'workers must be >= 1',
      field: 'workers',
    });
    const graph = tmpFile('cycle.json', {
      nodes: [{ id: 'a' }, { id: 'b' }],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
      ],
    });
    const cyclic = await runCli(['run', graph, '--json']);
    expect(cyclic.code).toBe(2);
    expect(errorOf(cyclic.out)).toMatchObject({ code: 'INVALID_GRAPH', field: 'graph.edges' });
  });

  it('a run past its --time-limit exits 1 with TIME_LIMIT', async () => {
    const r = await runCli(['run', 'batch-service', '--json', '--time-limit', '1ms']);
    expect(r.code).toBe(1);
    expect(errorOf(r.out)).toMatchObject({ code: 'TIME_LIMIT', field: '--time-limit' });
    expect(r.err).toMatch(/passed its time limit of 1ms .* \(TIME_LIMIT\)\n$/);
  });

  it("after '--', a positional named --json asks for no JSON", async () => {
    const r = await runCli(['run', '--', '--json']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
  });
});
