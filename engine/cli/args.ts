/**
 * Flag values the subcommands share: the argv pre-pass for negative numbers, and the checks that
 * turn `--seed`, `--policy` and the workload argument into values or one-line usage
 * errors.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { POLICY_NAMES, type PolicyName } from '../../shared/config.ts';
import { GRAPH_POLICIES, isGraphPolicy, type GraphPolicy } from '../../shared/graph.ts';
import { MAX_SEED } from '../../shared/limits.ts';
import { PRESET_NAMES } from '../core/workload/presets/index.ts';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `parseArgs` with two repairs: `--seed -1` would be refused as "ambiguous" (the value looks like
 * a flag), so a string flag followed by a negative number takes it as its value, and the
 * command's own check then says what is wrong with it; and a flag that takes one value, given
 * twice (`--seed 1 --seed 2`), is refused rather than the last one silently winning.
 */
export function parseCommandArgs<O extends Options>(
  argv: readonly string[],
  options: O,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: O; allowPositionals: true; strict: true }>
> {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : '';
    if (options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      args.push(`${arg}=${next}`);
      i++;
    } else args.push(arg);
  }
  const parsed = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || options[token.name]?.multiple === true) continue;
    if (seen.has(token.name)) {
      throw new UsageError(`--${token.name} is given twice: it takes one value`, `--${token.name}`);
    }
    seen.add(token.name);
  }
  const { tokens: _tokens, ...result } = parsed;
  return result;
}

export function seedOf(s: string | undefined): number | undefined {
  return s === undefined ? undefined : integerFlag(s, '--seed', 0, MAX_SEED);
}

/**
 * A flag's whole number, written in decimal digits only: `Number()` took `0x1F92`, `1e3`,
 * `8081.0` and `''` (0) for a port or a thread count.
 */
export function integerFlag(s: string, flag: string, min: number, max: number): number {
  const n = /^\d+$/.test(s) ? Number(s) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    throw new UsageError(
      `${flag} ${s === '' ? "''" : s}: must be an integer from ${min} to ${max}`,
      flag,
    );
  return n;
}

export function policyOf(p: string): PolicyName {
  if (!(POLICY_NAMES as readonly string[]).includes(p))
    throw new UsageError(`--policy ${p}: must be one of ${POLICY_NAMES.join(', ')}`, '--policy');
  return p as PolicyName;
}

/** A graph workload is ordered by a graph ready-queue policy, not a split-queue one. */
export function graphPolicyOf(p: string): GraphPolicy {
  if (!isGraphPolicy(p))
    throw new UsageError(
      `--policy ${p}: a graph workload takes a graph policy, one of ${GRAPH_POLICIES.join(', ')}`,
      '--policy',
    );
  return p;
}

export function oneWorkload(positionals: readonly string[], command: string): string {
  if (positionals.length !== 1)
    throw new UsageError(
      `${command} takes one preset name or workload file (presets: ${PRESET_NAMES.join(', ')})`,
      'workload',
    );
  return positionals[0]!;
}

/**
 * `--pipeline on|off` (cluster only; default on): whether each busy node worker keeps one quantum
 * queued behind its running one (README, "Running on several machines"). Undefined when not given.
 */
export function pipelineFlag(
  value: string | undefined,
  cluster: boolean,
  needs: string,
): boolean | undefined {
  if (value === undefined) return undefined;
  if (value !== 'on' && value !== 'off')
    throw new UsageError(`--pipeline ${value}: must be on or off`, '--pipeline');
  if (!cluster) throw new UsageError(`--pipeline goes with ${needs}`, '--pipeline');
  return value === 'on';
}
