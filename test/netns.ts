/**
 * A network namespace for a test, standing in for another host: its own loopback and one veth
 * link to this namespace (a /30 at a random 10.x.y.0, so two runs side by side do not clash),
 * nothing else. Made with `unshare -n` (a holder process keeps it alive) and `ip`; processes run
 * in it through `nsenter`. Needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN): `netnsUnavailable` says
 * why not where it cannot work, for the test to print when it skips.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { readlinkSync } from 'node:fs';

export interface NetNs {
  /** This side of the link (the address a server here can bind for the namespace to reach). */
  readonly hostAddress: string;
  /** Runs `node ...args` inside the namespace. */
  node(args: string[], options: { cwd: string }): ChildProcess;
  /** Exit status of `node ...args` run inside the namespace to its end. */
  nodeSync(args: string[]): number | null;
  close(): Promise<void>;
}

function sh(cmd: string, args: string[]): { ok: boolean; why: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  const ok = r.error === undefined && r.status === 0;
  return { ok, why: r.error?.message ?? r.stderr.trim() };
}

/** Why no namespace can be made here, or null when it can. */
export function netnsUnavailable(): string | null {
  if (process.platform !== 'linux')
    return `network namespaces are Linux only (${process.platform})`;
  if (process.getuid?.() !== 0) return 'making network namespaces and veth links needs root';
  for (const [cmd, args] of [
    ['unshare', ['-n', 'true']],
    ['ip', ['-V']],
    ['nsenter', ['--version']],
  ] as const) {
    const r = sh(cmd, [...args]);
    if (!r.ok) return `\`${cmd} ${args.join(' ')}\` failed: ${r.why}`;
  }
  return null;
}

/**
 * Why no namespace with a veth link can be made here, or null when one was: the tools can exist
 * and still be refused (a container without CAP_NET_ADMIN, a kernel without veth), so this makes
 * one and takes it down again.
 */
export async function netnsProbe(): Promise<string | null> {
  const missing = netnsUnavailable();
  if (missing !== null) return missing;
  try {
    await (await makeNetNs()).close();
    return null;
  } catch (e) {
    return `a namespace with a veth link could not be made: ${(e as Error).message}`;
  }
}

export async function makeNetNs(): Promise<NetNs> {
  const holder = spawn('unshare', ['-n', 'sleep', 'infinity'], { stdio: 'ignore' });
  const pid = String(holder.pid);
  const own = readlinkSync('/proc/self/ns/net');
  // The holder is in its namespace once its ns link differs from ours (unshare, then exec).
  for (let i = 0; ; i++) {
    let theirs = own;
    try {
      theirs = readlinkSync(`/proc/${pid}/ns/net`);
    } catch {
      // not started yet
    }
    if (theirs !== own) break;
    if (i > 200) {
      holder.kill('SIGKILL');
      throw new Error('unshare -n did not make a namespace within 10 s');
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const net = `10.${randomInt(16, 250)}.${randomInt(0, 256)}`;
  const tag = `${randomInt(0, 1e6)}`;
  const outside = `sl${tag}o`;
  const inside = `sl${tag}i`;
  const inNs = (...args: string[]) => ['-t', pid, '-n', ...args];
  const steps: [string, string[]][] = [
    ['ip', ['link', 'add', outside, 'type', 'veth', 'peer', 'name', inside, 'netns', pid]],
    ['ip', ['addr', 'add', `${net}.1/30`, 'dev', outside]],
    ['ip', ['link', 'set', outside, 'up']],
    ['nsenter', inNs('ip', 'addr', 'add', `${net}.2/30`, 'dev', inside)],
    ['nsenter', inNs('ip', 'link', 'set', inside, 'up')],
    ['nsenter', inNs('ip', 'link', 'set', 'lo', 'up')],
  ];
  const close = async () => {
    sh('ip', ['link', 'del', outside]); // the pair goes with it; gone already if never made
    if (holder.exitCode === null && holder.signalCode === null) {
      await new Promise<void>((resolve) => {
        holder.once('exit', () => resolve());
        holder.kill('SIGKILL');
      });
    }
  };
  for (const [cmd, args] of steps) {
    const r = sh(cmd, args);
    if (!r.ok) {
      await close();
      throw new Error(`${cmd} ${args.join(' ')}: ${r.why}`);
    }
  }
  return {
    hostAddress: `${net}.1`,
    node: (args, options) =>
      spawn('nsenter', inNs(process.execPath, ...args), {
        cwd: options.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env },
      }),
    nodeSync: (args) => spawnSync('nsenter', inNs(process.execPath, ...args)).status,
    close,
  };
}
