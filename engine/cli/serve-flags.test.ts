// `schedlab serve` flags for a sim session and a kept token: bad values are one-line errors (exit
// 2) naming the flag, before anything starts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli-testing.ts';

const serve = (...argv: string[]) => runCli(['serve', '--no-build', ...argv]);

describe('schedlab serve flags', () => {
  it.each([
    [['--backend', 'gpu'], '--backend gpu: must be threads, sim or cluster'],
    [['--backend', 'sim', '--speed', '0'], '--speed 0: must be a number in (0, 1000000] or max'],
    [['--backend', 'sim', '--seed', '1.5'], '--seed 1.5: must be an integer from 0 to 4294967295'],
    [['--speed', '2'], '--speed and --seed need --backend sim'],
    [['--token', 'a', '--keep-token'], '--token, --token-file and --keep-token: give at most one'],
    // A negative number is the flag's value, refused naming the flag (it was "ambiguous").
    [['--backend', 'sim', '--seed', '-1'], '--seed -1: must be an integer from 0 to 4294967295'],
    [['--port', '-5'], '--port'],
    // Decimal digits only (`Number()` listened on 8082 for 0x1F92, on a random port for '').
    [['--port', '0x1F92'], '--port 0x1F92: must be an integer from 0 to 65535'],
    [['--port', '1e3'], '--port 1e3: must be an integer from 0 to 65535'],
    [['--port', '8081.0'], '--port 8081.0: must be an integer from 0 to 65535'],
    [['--port', ''], "--port '': must be an integer from 0 to 65535"],
    [['--backend', 'sim', '--speed', '0x10'], '--speed 0x10: must be a number in (0, 1000000]'],
    [['--backend', 'sim', '--speed', ''], '--speed : must be a number'],
    [['stray'], "serve takes no argument 'stray'"],
  ])('%j is refused', async (argv, message) => {
    const r = await serve(...argv);
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toContain(message);
  });

  it('a malformed --token is refused, naming the field', async () => {
    const r = await serve('--backend', 'sim', '--token', 'short');
    expect(r.code).toBe(2);
    expect(r.err).toContain('token must be 16 to 128 characters');
  });

  it('a --token-file that is a directory is refused, naming the field, exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schedlab-token-dir-'));
    try {
      const r = await serve('--backend', 'sim', '--token-file', dir);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`tokenFile ${dir} is a directory, not a regular file`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
