/**
 * User modules in the desktop app. The live session runs modules only from allowed directories
 * (engine/host/report/user-modules.ts; browser mode's `--modules DIR`). The app has no command
 * line, so when a workload names a module outside them it asks the user, once per directory: an
 * allowed directory joins the session's list (and is remembered across launches, config-store.ts),
 * a declined one is refused for the rest of the session without asking again (docs/design.md §7).
 */
import { dialog, type BrowserWindow } from 'electron';
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchedLabError } from '../shared/errors.ts';
import { MAX_SPLITS_PER_JOB } from '../shared/limits.ts';
import type { CommandError } from '../shared/protocol.ts';
import { jobModuleUses, moduleUses, type ModuleUse } from '../engine/host/report/user-modules.ts';

export interface ModuleConsentOptions {
  /**
   * The directories (real paths) the live session allows: the same array it was started with
   * (`startLiveSession({ modules })`), grown in place as the user allows more.
   */
  readonly allowed: string[];
  /** Asks the user whether modules may run from `dir` (`module` is the one that asked). */
  ask(dir: string, module: string): Promise<boolean>;
  /** Told the whole list each time the user allows a directory (to remember it). */
  onAllow?(allowed: readonly string[]): void;
}

/** Runs before a command reaches the session: null lets it through, a result refuses it. */
export type CommandReview = (command: unknown) => Promise<CommandError | null>;

/** The real path of a module reference, or null where the engine will refuse it anyway. */
function realModulePath(module: string): string | null {
  try {
    const path = module.startsWith('file:') ? fileURLToPath(module) : module;
    return isAbsolute(path) ? realpathSync(path) : null;
  } catch {
    return null; // missing or malformed: the engine answers MODULE_UNLOADABLE, naming the field
  }
}

const inside = (path: string, dir: string) => path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

export function moduleConsent(options: ModuleConsentOptions): CommandReview {
  const { allowed } = options;
  // One answer per directory for the session; a pending one is shared by concurrent loads.
  const answers = new Map<string, Promise<boolean>>();

  // One question on screen at a time: twenty loads naming twenty folders opened twenty dialogs
  // at once. The next is asked once the one before is answered (or went unanswered).
  let asking: Promise<unknown> = Promise.resolve();
  const askInTurn = (dir: string, module: string): Promise<boolean> => {
    const turn = asking.then(() => options.ask(dir, module));
    asking = turn.catch(() => undefined);
    return turn;
  };

  const decide = (dir: string, module: string): Promise<boolean> => {
    let answer = answers.get(dir);
    if (answer === undefined) {
      answer = askInTurn(dir, module).then(
        (yes) => {
          if (yes && !allowed.includes(dir)) {
            allowed.push(dir);
            options.onAllow?.(allowed);
          }
          return yes;
        },
        () => {
          answers.delete(dir); // no answer (the window closed): ask again next time
          return false;
        },
      );
      answers.set(dir, answer);
    }
    return answer;
  };

  return async (command) => {
    if (typeof command !== 'object' || command === null) return null;
    const { type, workload, job, id } = command as Record<string, unknown>;
    // A workload's modules, or a submitted job's (held to the same folders by the session).
    let uses: ModuleUse[];
    if (type === 'submitJob') uses = jobModuleUses(job);
    else if (type === 'loadWorkload' && typeof workload === 'object' && workload !== null) {
      uses = moduleUses(workload as Record<string, unknown>);
    } else return null;
    // Past a job's limit of splits the session refuses it without running anything: nothing to
    // ask about, and 200,000 splits of distinct paths held the main process 4 s in realpath.
    if (uses.length > MAX_SPLITS_PER_JOB) return null;
    // A job names its module once a split: each path is looked at once (10,000 splits of one
    // module made 10,000 realpath calls on the main process).
    const looked = new Set<string>();
    for (const use of uses) {
      if (looked.has(use.ref.module)) continue;
      looked.add(use.ref.module);
      const real = realModulePath(use.ref.module);
      if (real === null || allowed.some((dir) => inside(real, dir))) continue;
      const dir = dirname(real);
      if (await decide(dir, use.ref.module)) continue;
      const error = new SchedLabError(
        'MODULE_NOT_ALLOWED',
        `${use.field}: ${use.ref.module} is in ${dir}, which modules may not run from (declined)`,
        use.field,
      );
      return {
        ok: false,
        ...(typeof id === 'string' || typeof id === 'number' ? { id } : {}),
        error: error.toInfo(),
      };
    }
    return null;
  };
}

/** The question, as a dialog over the app window (or on its own when there is none). */
export function askInDialog(window: () => BrowserWindow | null) {
  return async (dir: string, module: string): Promise<boolean> => {
    const options = {
      type: 'warning' as const,
      buttons: ['Allow this folder', 'Deny'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
      title: 'Run code from a folder?',
      message: `Allow workloads to run modules from ${dir}?`,
      detail:
        `The workload names the module ${module}. A module runs inside SchedLab with all of ` +
        'your rights on this computer: allow only a folder whose code you trust. The answer ' +
        'holds until you quit; a folder you allow is remembered for later launches too.',
    };
    const parent = window();
    const { response } = await (parent === null
      ? dialog.showMessageBox(options)
      : dialog.showMessageBox(parent, options));
    return response === 0;
  };
}
