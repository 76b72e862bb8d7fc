// The app on the cluster backend: a browser-mode session (`schedlab serve --backend cluster`)
// over a Redis this spec starts (test/redis-server.ts) and two `schedlab worker` processes, one
// worker each. The workers panel and the Gantt group their lanes by node, each node under its name.
// Every process it starts is stopped at the end; waits are bounds for a busy machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestRedis, type TestRedis } from '../../test/redis-server.ts';
import { expect, test } from '../fixtures/app.ts';
import { openApp, screenshot } from './app-helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const URL_PATTERN = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/;
// Three tsx processes starting on a loaded 2-core machine can take 40 s.
const START_MS = 90_000;

/** Starts `bin/schedlab.js ...args`; resolves with the process and the first output `ready` matches. */
function start(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: string }> {
  const child = spawn(process.execPath, ['bin/schedlab.js', ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0' },
  });
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => fail('did not start in time'), START_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`schedlab ${args[0]} ${why}:\n${log}`));
    };
    const read = (d: Buffer) => {
      log += d.toString();
      const m = ready.exec(log);
      if (m !== null) {
        clearTimeout(timer);
        resolve({ child, match: m[0] });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => fail(`exited (${String(code)})`));
  });
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

test('lanes and the workers panel are grouped by node on the cluster backend', async ({
  page,
  host,
}) => {
  test.skip(host !== 'browser', 'the cluster session is a browser-mode server this spec starts');
  test.setTimeout(240_000);
  let redis: TestRedis | undefined;
  const children: ChildProcess[] = [];
  try {
    redis = await startTestRedis();
    const workers = await Promise.all(
      ['alpha', 'beta'].map((name) =>
        start(
          ['worker', '--redis', redis!.url, '--threads', '1', '--name', name],
          /waiting for quanta/,
        ),
      ),
    );
    children.push(...workers.map((w) => w.child));
    const serve = await start(
      [
        'serve',
        '--backend',
        'cluster',
        '--redis',
        redis.url,
        '--port',
        '0',
        '--no-build',
        '--preset',
        'interactive-vs-scan',
      ],
      URL_PATTERN,
    );
    children.push(serve.child);

    await openApp(page, serve.match);
    const groups = page.getByTestId('node-group');
    await expect(groups).toHaveCount(2, { timeout: 30_000 });
    const names = await groups.evaluateAll((els) => els.map((e) => e.getAttribute('data-node')));
    expect(names.sort()).toEqual(['alpha', 'beta']);
    for (const name of ['alpha', 'beta']) {
      const group = page.locator(`[data-testid="node-group"][data-node="${name}"]`);
      await expect(group.getByTestId('worker-row')).toHaveCount(1);
      await expect(group.locator('.node-row')).toContainText(name);
    }
    // The Gantt: one group per node, top down, each with its one lane.
    const gantt = page.getByTestId('gantt-canvas');
    await expect
      .poll(async () => ((await gantt.getAttribute('data-nodes')) ?? '').split(',').sort(), {
        timeout: 30_000,
      })
      .toEqual(['alpha:1', 'beta:1']);
    // Both nodes run quanta of the preset: each lane draws spans.
    await expect
      .poll(async () => (await gantt.getAttribute('data-lane-spans')) ?? '', { timeout: 60_000 })
      .toMatch(/^[1-9]\d*,[1-9]\d*$/);
    await screenshot(page, 'cluster-live');
  } finally {
    await Promise.all(children.map(stop));
    await redis?.stop();
  }
});
