// User modules in the desktop app: a workload naming a module outside the allowed folders makes
// the app ask, once per folder, before the live session sees it; the answer holds for the session.
// Run against a recording stand-in for `electron` (the binary cannot be downloaded here), and once
// against a real live session on worker threads.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startLiveSession } from '../engine/host/server/live-session.ts';
import type { AnyHostSession } from '../engine/host/server/host-session.ts';

const shown = vi.hoisted(() => ({
  dialogs: [] as { parent: unknown; options: { message: string; detail: string } }[],
}));
vi.mock('electron', () => ({
  dialog: {
    showMessageBox: (...args: unknown[]) => {
      const [parent, options] = args.length === 2 ? args : [null, args[0]];
      shown.dialogs.push({ parent, options: options as { message: string; detail: string } });
      return Promise.resolve({ response: 0, checkboxChecked: false });
    },
  },
}));

const { askInDialog, moduleConsent } = await import('./module-consent.ts');
const { answerCommand } = await import('./command-ipc.ts');

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'schedlab-consent-')));
  shown.dialogs.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A module file at `dir/rel`, returning its path. */
function module(rel: string): string {
  const path = join(dir, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, 'export default function () { return 1; }\n');
  return path;
}

const load = (paths: string[], id?: number) => ({
  type: 'loadWorkload',
  ...(id === undefined ? {} : { id }),
  workload: {
    name: 'mods',
    classes: paths.map((p, i) => ({
      name: `c${i}`,
      arrival: { kind: 'once' },
      splits: { leaf: 1 },
      work: { kernel: { module: p }, totalMs: 1 },
    })),
  },
});

/** An `ask` that records each question and answers from `replies` (default: allow). */
function asker(replies: boolean[] = []) {
  const asked: string[] = [];
  const ask = (d: string) => (asked.push(d), Promise.resolve(replies.shift() ?? true));
  return { asked, ask };
}

describe('asking before a module runs from a new folder', () => {
  it('asks once per folder; an allowed folder joins the list and is passed on to remember', async () => {
    const allowed: string[] = [];
    const remembered: string[][] = [];
    const { asked, ask } = asker([true]);
    const review = moduleConsent({ allowed, ask, onAllow: (d) => remembered.push([...d]) });
    const a = module('kernels/a.mjs');
    const b = module('kernels/b.mjs');
    expect(await review(load([a]))).toBeNull();
    expect(await review(load([b, pathToFileURL(a).href]))).toBeNull();
    expect(asked).toEqual([join(dir, 'kernels')]);
    expect(allowed).toEqual([join(dir, 'kernels')]);
    expect(remembered).toEqual([[join(dir, 'kernels')]]);
  });

  it('asks for the modules of a job submitted by command too, naming its field when declined', async () => {
    const { asked, ask } = asker([false]);
    const review = moduleConsent({ allowed: [], ask });
    const bad = module('jobs/k.mjs');
    const work = { kernel: { module: bad }, totalNanos: 1 };
    const submit = {
      type: 'submitJob',
      id: 3,
      job: { class: 'c', tasks: [{ splits: [{ kind: 'leaf', work }] }] },
    };
    expect(await review(submit)).toMatchObject({
      ok: false,
      id: 3,
      error: { code: 'MODULE_NOT_ALLOWED', field: 'job.tasks[0].splits[0].work.kernel.module' },
    });
    expect(asked).toEqual([join(dir, 'jobs')]);
    // A malformed job is the schema's to refuse: nothing to ask about.
    expect(await review({ type: 'submitJob', job: { tasks: 'x' } })).toBeNull();
  });

  it('refuses a declined folder with MODULE_NOT_ALLOWED naming the field, without asking again', async () => {
    const allowed: string[] = [];
    const { asked, ask } = asker([false]);
    const review = moduleConsent({ allowed, ask });
    const ok = module('ok/k.mjs');
    const bad = module('bad/k.mjs');
    allowed.push(join(dir, 'ok'));
    const first = await review(load([ok, bad], 7));
    expect(first).toMatchObject({
      ok: false,
      id: 7,
      error: { code: 'MODULE_NOT_ALLOWED', field: 'classes[1].work.kernel.module' },
    });
    expect(first?.error.message).toContain(join(dir, 'bad'));
    expect(await review(load([bad]))).toMatchObject({ error: { code: 'MODULE_NOT_ALLOWED' } });
    expect(asked).toEqual([join(dir, 'bad')]);
    expect(allowed).toEqual([join(dir, 'ok')]);
  });

  it('asks once for loads that arrive together, and again after a question went unanswered', async () => {
    let release: (yes: boolean) => void = () => {};
    const asked: string[] = [];
    let fail = true;
    const review = moduleConsent({
      allowed: [],
      ask: (d) => {
        asked.push(d);
        if (fail) return ((fail = false), Promise.reject(new Error('window closed')));
        return new Promise<boolean>((resolve) => (release = resolve));
      },
    });
    const m = module('x/m.mjs');
    expect(await review(load([m]))).toMatchObject({ error: { code: 'MODULE_NOT_ALLOWED' } });
    const both = Promise.all([review(load([m])), review(load([m]))]);
    await new Promise((resolve) => setImmediate(resolve));
    release(true);
    expect(await both).toEqual([null, null]);
    expect(asked).toEqual([join(dir, 'x'), join(dir, 'x')]);
  });

  it('asks one question at a time: loads naming several folders wait for the one on screen', async () => {
    // Before: twenty loads naming twenty folders opened twenty dialogs at once.
    const open: string[] = [];
    let most = 0;
    const releases: ((yes: boolean) => void)[] = [];
    const review = moduleConsent({
      allowed: [],
      ask: (d) => {
        open.push(d);
        most = Math.max(most, open.length);
        return new Promise<boolean>((resolve) =>
          releases.push((yes) => {
            open.splice(open.indexOf(d), 1);
            resolve(yes);
          }),
        );
      },
    });
    const loads = ['a', 'b', 'c'].map((f) => review(load([module(`${f}/m.mjs`)])));
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(releases).toHaveLength(i + 1);
      releases[i]!(true);
    }
    expect(await Promise.all(loads)).toEqual([null, null, null]);
    expect(most).toBe(1);
  });

  it('leaves a job past the splits limit to the session, looking at none of its paths', async () => {
    // Before: 200,000 splits naming distinct paths held the main process 4 s in realpath, for a
    // job the session then refused.
    const { asked, ask } = asker();
    const review = moduleConsent({ allowed: [], ask });
    const m = module('big/m.mjs');
    // Distinct references to one file (a URL's fragment is not part of its path).
    const url = pathToFileURL(m).href;
    const split = (i: number) => ({ kind: 'leaf', work: { kernel: { module: `${url}#${i}` } } });
    const job = {
      class: 'c',
      tasks: [{ splits: Array.from({ length: 10_001 }, (_, i) => split(i)) }],
    };
    expect(await review({ type: 'submitJob', job })).toBeNull();
    expect(asked).toEqual([]);
  });

  it('does not ask for allowed folders (or below them), other commands, or missing files', async () => {
    const { asked, ask } = asker();
    const review = moduleConsent({ allowed: [dir], ask });
    expect(await review(load([module('deep/er/m.mjs')]))).toBeNull();
    expect(await review(load([join(dir, 'nope.mjs'), 'relative.mjs']))).toBeNull();
    expect(await review({ type: 'pause' })).toBeNull();
    expect(await review({ type: 'loadWorkload', workload: 'x' })).toBeNull();
    // A prefix of an allowed folder's name is not inside it.
    const sibling = realpathSync(mkdtempSync(`${dir}-sib`));
    try {
      writeFileSync(join(sibling, 'm.mjs'), 'export default 1;\n');
      await review(load([join(sibling, 'm.mjs')]));
      expect(asked).toEqual([sibling]);
    } finally {
      rmSync(sibling, { recursive: true, force: true });
    }
  });

  it('never asks on behalf of a sender that is not our page', async () => {
    const { asked, ask } = asker();
    const session = { handleCommand: () => Promise.resolve({ ok: true }) } as never;
    const evil = { senderFrame: { url: 'https://evil.example/' } };
    const review = moduleConsent({ allowed: [], ask });
    await expect(answerCommand(session, evil, load([module('m.mjs')]), review)).rejects.toThrow(
      /refused/,
    );
    expect(asked).toEqual([]);
  });

  it('asks in a dialog over the app window that names the folder and the module', async () => {
    const win = { id: 'window' };
    expect(await askInDialog(() => win as never)('/srv/kernels', '/srv/kernels/a.mjs')).toBe(true);
    expect(shown.dialogs[0]?.parent).toBe(win);
    expect(shown.dialogs[0]?.options.message).toContain('/srv/kernels');
    expect(shown.dialogs[0]?.options.detail).toContain('/srv/kernels/a.mjs');
  });
});

describe('with a live session on worker threads', () => {
  it(
    'runs the module once its folder is allowed, and refuses it when declined',
    { timeout: 60_000 },
    async () => {
      const allowedDirs: string[] = [];
      const session = await startLiveSession({
        preset: null,
        config: { workers: 1 },
        modules: allowedDirs,
      });
      try {
        const own = { senderFrame: { url: 'app://schedlab/index.html' } };
        const m = module('trusted/k.mjs');
        const declined = module('untrusted/k.mjs');
        const { ask } = asker([true, false]);
        const review = moduleConsent({ allowed: allowedDirs, ask });
        const host: AnyHostSession = session;
        await expect(answerCommand(host, own, load([m]), review)).resolves.toMatchObject({
          ok: true,
        });
        await expect(answerCommand(host, own, load([declined]), review)).resolves.toMatchObject({
          ok: false,
          error: { code: 'MODULE_NOT_ALLOWED' },
        });
        // Without the question the session itself refuses a folder nobody allowed.
        await expect(session.handleCommand(load([declined]) as never)).resolves.toMatchObject({
          ok: false,
          error: { code: 'MODULE_NOT_ALLOWED' },
        });
      } finally {
        await session.close();
      }
    },
  );
});
