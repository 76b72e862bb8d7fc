// The opt-in soaks (bench/soak.ts, bench/soak-library.ts) are not part of `npm run bench`, so
// nothing else runs them: the threads/sim soak once broke unnoticed (it read executor fields that
// had moved). Each runs here briefly and must print its table and a verdict from real samples.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const TSX = 'node_modules/.bin/tsx';

function soak(script: string, args: string[]): string {
  try {
    return execFileSync(TSX, [script, ...args], { encoding: 'utf8', timeout: 120_000 });
  } catch (e) {
    // GROWING (1) and OVERLOADED (2) are verdicts, not failures: a short soak is noisy.
    const { status, stdout } = e as { status: number | null; stdout: string };
    if (status === 1 || status === 2) return stdout;
    throw e;
  }
}

describe('the soaks run', () => {
  it('bench/soak.ts on the simulator: a table of samples, then a verdict', () => {
    const out = soak('bench/soak.ts', ['--backend', 'sim', '--minutes', '2', '--sample-s', '30']);
    const rows = out.split('\n').filter((l) => /^\s+\d+\.\d\s+\d+\.\d\d\s/.test(l));
    expect(rows).toHaveLength(5); // 0, 0.5, 1, 1.5, 2 virtual minutes
    expect(out).toMatch(/sim, churn, 2 min, 5 samples, [\d,]+ quanta/);
    expect(out).toMatch(/^verdict: (FLAT|GROWING|INCONCLUSIVE|OVERLOADED)/m);
  });

  it('bench/soak-library.ts: a service scheduler with every kind of run, then a verdict', () => {
    const out = soak('bench/soak-library.ts', [
      '--minutes',
      '0.1',
      '--rate',
      '300',
      '--sample-s',
      '2',
    ]);
    // Runs of every kind ended, each with its own outcome.
    expect(out).toMatch(/succeeded [\d,]+/);
    expect(out).toMatch(/KERNEL_FAILED [\d,]+/);
    expect(out).toMatch(/CANCELLED [\d,]+/);
    expect(out).toMatch(/TIMEOUT [\d,]+/);
    expect(out).toMatch(/console frames over 1 clients/);
    expect(out).toMatch(/^verdict: (FLAT|GROWING|INCONCLUSIVE|OVERLOADED)/m);
  });
});
