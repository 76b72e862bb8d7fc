/**
 * `schedlab` (docs/design.md §2 `engine/cli`): run, compare, presets, serve, attach, bench, worker. Exit codes: 0 on
 * success, 2 on bad input (one line naming what is wrong), 1 when the engine fails.
 */
import { SchedLabError, isSchedLabError } from '../../shared/errors.ts';
import { attachCommand } from './attach.ts';
import { compareCommand, presetsCommand, runCommand } from './report-commands.ts';
import { processIo, type CliIo } from './io.ts';
import { benchCommand, serveCommand } from './long-running.ts';
import { UsageError } from './usage-error.ts';
import { asksForHelp, commandUsage, flagGiven } from './usage.ts';
import { workerCommand } from './worker-command.ts';

export const USAGE = `usage: schedlab <command> [options]

  run <preset|file>      run a workload and print its summary
      [--backend sim|threads|cluster --redis URL] [--policy mlfq|priority|fifo|fair] [--set key=value]…
      [--seed N] [--duration 30s] [--json] [--trace out.json] [--progress]
      [--modules DIR]… [--time-limit 10m] [--pipeline on|off (cluster; default on)]
  compare <preset|file>  the same seeded workload once per config, on the simulator
      --policy A --policy B … | --config a.json --config b.json …  [--set …] [--seed N] [--duration 30s] [--json]
  presets [--json]       list the shipped workloads
  serve [--port N] [--preset NAME] [--modules DIR]…
                         browser mode: the app over HTTP + WebSocket on 127.0.0.1
      [--backend threads|sim|cluster] [--speed X|max] [--seed N]
      [--token TOKEN | --token-file PATH | --keep-token] [--redis URL (needed by --backend cluster)]
      [--pipeline on|off (cluster; default on)] [--no-build (serve the renderer as built)]
  attach URL [--no-open] the app on a service's console (scheduler.serveConsole() printed URL):
      [--browser]        the desktop app where Electron exists, else (or with --browser) the browser
  bench [suite…]         run the benchmarks (bench/index.ts)
  worker --redis URL [--threads N] [--name NAME] [--modules DIR]…
                         a worker node for --backend cluster (user modules only from DIRs)

--duration is workload time (on threads a Trino preset's 20 minutes pass in 12 s of wall time).
--policy on a graph workload (diamond, random-layered-dag, …) is the graph's ready-queue policy:
fifo, lifo, most-successors, sjf, ljf or critical-path. --seed reseeds its generated graphs too.
serve --backend sim: the live app over the simulator, paced at --speed × real time (max: as
fast as it goes), seeded: with the same --seed it shows what \`run <preset> --seed N\` reports.
The app's header switches the backend live (threads, sim, and cluster when serve has --redis).
--pipeline on (cluster, the default): each busy node worker keeps one quantum queued behind its
running one, so it never waits a round trip through Redis between quanta; off makes the policy
choose each quantum when a worker frees (a newcomer it favours then waits at most one quantum).
serve --keep-token keeps the token in $XDG_STATE_HOME/schedlab/token (~/.local/state/…), so a
restarted server keeps the URL an open tab has; --token-file PATH does the same with PATH.
serve reads commands on stdin, one a line, and prints each answer: cancelAll, resetStats, pause,
resume, or any protocol command as JSON ({"type":"setPolicy","policy":"fifo"}).
--progress: a line redrawn in place on a terminal (the default there unless --json); elsewhere,
plain lines on stderr about once a second.
--set takes an engine setting (levelTimeMultiplier=4, policy=fifo, workers=8) or a workload
field (classes[1].arrival.rate=2, seed=7). Its times are workload time: on threads the engine
gets them multiplied by the workload's timeScale (quantumMs=1000 at timeScale 0.01 is 10 ms).
--modules DIR (repeatable): user modules (kernel: {module}) load only from these directories
(real paths: symlinks followed, no ..); run also allows the workload file's own directory.
User modules run on --backend threads, and on cluster nodes from their own --modules DIRs.
--trace PATH: a file, /dev/null, or a FIFO something reads (--trace >(gzip > t.json.gz));
a FIFO nobody reads is refused rather than waited on. Workload and --config files must be
regular files (docs/cli.md).
--json: a failure is answered in JSON too, {"error":{"code":…,"message":…,"field":…}} on stdout,
with the exit code of the one line on stderr (2: bad input, 1: the run failed; docs/cli.md).
--time-limit: a run whose workload has no durationMs (it ends when its jobs do) stops after
10m of wall time by default, exit 1; the flag sets the limit for any run. It counts from the
command's start: reading, checking and compiling the workload count too.`;

const COMMANDS = 'run, compare, presets, serve, attach, bench, worker';

/** Codes that mean the input was wrong rather than the engine. */
const BAD_INPUT = /^(INVALID_|UNKNOWN_|DUPLICATE_ID|BAD_MESSAGE|MODULE_)/;

export async function main(argv: readonly string[], given: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  // Whether the command printed its result: a failure after it (a trace that cannot be written)
  // adds no second JSON document to stdout.
  let printed = false;
  const io: CliIo = {
    out: (text) => {
      printed = true;
      given.out(text);
    },
    err: (text) => given.err(text),
    errIsTty: given.errIsTty,
    ...(given.now === undefined ? {} : { now: given.now }),
  };
  const help = command === undefined || !asksForHelp(rest) ? null : commandUsage(USAGE, command);
  if (help !== null) {
    io.out(help);
    return 0;
  }
  try {
    switch (command) {
      case 'run':
        return await runCommand(rest, io);
      case 'compare':
        return await compareCommand(rest, io);
      case 'presets':
        return presetsCommand(rest, io);
      case 'serve':
        return await serveCommand(rest, io);
      case 'attach':
        return await attachCommand(rest, io);
      case 'bench':
        return await benchCommand(rest);
      case 'worker':
        return await workerCommand(rest, io);
      case 'help':
      case '--help':
      case '-h':
        io.out(`${USAGE}\n`);
        return 0;
      case undefined:
        throw new UsageError(
          `no command given (${COMMANDS}; schedlab --help for usage)`,
          'command',
        );
      default:
        throw new UsageError(
          `unknown command "${command}" (${COMMANDS}; schedlab --help for usage)`,
          'command',
        );
    }
  } catch (e) {
    const error = coded(e, command);
    io.err(`schedlab: ${error.message} (${error.code})\n`);
    if (error.code === 'ENGINE_FAILURE' && process.env['SCHEDLAB_DEBUG'] && e instanceof Error)
      io.err(`${e.stack ?? ''}\n`);
    if (flagGiven(argv, '--json') && !printed)
      io.out(`${JSON.stringify({ error: error.toInfo() })}\n`);
    // Bad input exits 2; a known failure (a cluster out of reach, a package missing, the time
    // limit) and the engine's own exit 1.
    return BAD_INPUT.test(error.code) ? 2 : 1;
  }
}

/**
 * Any failure as a coded error: `parseArgs`' own (an unknown flag, a missing value) as a usage
 * error naming the flag (Node's first line, or ours for an unknown flag); anything uncoded as
 * `ENGINE_FAILURE`.
 */
function coded(e: unknown, command: string | undefined): SchedLabError {
  if (e instanceof TypeError && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS')) {
    const message = e.message.split('\n')[0]!;
    const flag = /'(-[^' ]+)/.exec(message)?.[1];
    // Node's own text for an unknown flag is a paragraph on positionals that starts with `-`.
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && flag !== undefined)
      return new UsageError(
        `${flag}: unknown flag (schedlab ${command} --help lists its flags)`,
        flag,
      );
    return new UsageError(message, flag);
  }
  if (isSchedLabError(e)) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new SchedLabError('ENGINE_FAILURE', `engine failure: ${message}`);
}
