/**
 * A Redis for tests: `REDIS_URL` when set (CI may start one), else Debian's `redis-server`
 * started here on a free loopback port, in a temp dir, without persistence, and stopped by
 * `stop()`. A machine without `redis-server` fails the test with a message saying how to get it,
 * never a skip.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Kills this Redis (SIGKILL: what a crash looks like to its clients); no-op for REDIS_URL. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty (no persistence). */
  restart(): Promise<void>;
  /** Stops it answering, its connections left open (SIGSTOP: a stalled host); `resume` (SIGCONT). */
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

const BINARY = process.env.REDIS_SERVER ?? 'redis-server';

/** A loopback port nothing listens on now (the OS's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function checkBinary(): void {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(
      `the cluster tests need Redis: ${BINARY} was not found (${probe.error?.message ?? probe.stderr}). ` +
        'Install it (Debian: apt-get install redis-server; .ci/run does this) or set REDIS_URL.',
    );
  }
}

/** Where a test Redis listens besides loopback, and its password (needed off loopback). */
export interface TestRedisOptions {
  readonly bind?: readonly string[];
  readonly password?: string;
}

/** Resolves once the server prints that it accepts connections; rejects if it exits first. */
function launch(port: number, dir: string, options: TestRedisOptions): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', ...(options.bind ?? [])];
  if (options.password !== undefined) args.push('--requirepass', options.password);
  const child = spawn(BINARY, [...args, '--save', '', '--appendonly', 'no'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server did not start within 20 s on port ${port}:\n${log}`));
    }, 20_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with code ${code} on port ${port}:\n${log}`));
    });
  });
}

function exited(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

export async function startTestRedis(options: TestRedisOptions = {}): Promise<TestRedis> {
  const given = process.env.REDIS_URL;
  if (given !== undefined && given !== '') {
    if (options.bind !== undefined || options.password !== undefined) {
      throw new Error('REDIS_URL is set: the tests cannot choose where that Redis listens');
    }
    const port = Number(new URL(given).port || 6379);
    const fixed = () => {
      throw new Error('REDIS_URL is set: the tests cannot kill, stop or restart that Redis');
    };
    return {
      url: given,
      port,
      kill: fixed,
      restart: fixed,
      pause: fixed,
      resume: fixed,
      stop: async () => {},
    };
  }
  checkBinary();
  const dir = mkdtempSync(join(tmpdir(), 'schedlab-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = await launch(port, dir, options);
  const auth = options.password === undefined ? '' : `:${options.password}@`;
  return {
    url: `redis://${auth}127.0.0.1:${port}`,
    port,
    async kill() {
      if (child !== null) await exited(child, 'SIGKILL');
      child = null;
    },
    async restart() {
      if (child === null) child = await launch(port, dir, options);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async stop() {
      child?.kill('SIGCONT'); // a paused one would not hear the SIGTERM
      if (child !== null) await exited(child, 'SIGTERM');
      child = null;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
