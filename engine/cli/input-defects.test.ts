// Small input defects, each answered with a clear error naming what is wrong (or accepted, for a
// byte-order mark), never silently mis-read.
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_CONTAINERS } from '../../shared/limits.ts';
import { parseWorkload } from '../../shared/workload.ts';
import { containersPast } from './load.ts';
import { runCli, tmpFile, TINY_WORKLOAD } from './cli-testing.ts';

describe('prototype keys', () => {
  it('--set refuses __proto__, constructor and prototype in a path; nothing is polluted', async () => {
    for (const key of [
      'config.__proto__.polluted',
      'classes[0].constructor.x',
      'config.prototype',
    ]) {
      const r = await runCli(['run', 'interactive-vs-scan', '--set', `${key}=1`]);
      expect(r.code, key).toBe(2);
      expect(r.err).toContain('is not allowed in a field path');
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a workload refuses such keys in config and threads', () => {
    const doc = (field: string, key: string) =>
      JSON.parse(
        `{"${field}": {"${key}": {"x": 1}}, "classes": ${JSON.stringify(TINY_WORKLOAD.classes)}}`,
      ) as unknown;
    expect(() => parseWorkload(doc('config', '__proto__'))).toThrow(
      'config.__proto__ is not allowed as a setting name',
    );
    expect(() => parseWorkload(doc('threads', 'constructor'))).toThrow(
      'threads.constructor is not allowed as a setting name',
    );
  });
});

describe('CLI input edges', () => {
  it('serve --preset nope exits 2 naming the presets, before serving', async () => {
    const r = await runCli(['serve', '--preset', 'nope', '--no-build']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--preset nope: no such preset (interactive-vs-scan');
    expect(r.out).toBe('');
  });

  it('serve refuses a bad or open --redis URL at once, as run and worker do, before serving', async () => {
    // Before: it served, and refused the URL only when a client switched to the cluster.
    const scheme = await runCli(['serve', '--redis', 'http://x', '--no-build']);
    expect(scheme.code).toBe(2);
    expect(scheme.err).toContain('--redis http://x: scheme must be redis: or rediss:');
    expect(scheme.out).toBe('');
    const open = await runCli(['serve', '--redis', 'redis://192.0.2.1:6379', '--no-build']);
    expect(open.code).toBe(2);
    expect(open.err).toContain('--redis redis://192.0.2.1:6379');
    expect(open.err).toContain('password');
  });

  it('bench with an unknown suite exits 2 with the list of suites', async () => {
    const r = await runCli(['bench', 'nosuchsuite']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no suite nosuchsuite (suites: ');
    expect(r.err).toMatch(/suites: .*\bpool\b.*\bdag\b/);
  });

  it('reads a workload file that starts with a UTF-8 byte-order mark', async () => {
    const file = tmpFile('bom.json', `\uFEFF${JSON.stringify(TINY_WORKLOAD)}`);
    const r = await runCli(['run', file, '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ workload: 'tiny' });
  });

  it('says a directory is a directory, not "no such file"', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schedlab-dir-'));
    try {
      const r = await runCli(['run', dir]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`workload ${dir}: is a directory, not a regular file`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file that exists but cannot be read is named with its cause, not called missing', async () => {
    // Root reads any file whatever its mode: a link to itself fails for root too (ELOOP).
    const dir = mkdtempSync(join(tmpdir(), 'schedlab-loop-'));
    const loop = join(dir, 'loop.json');
    symlinkSync(loop, loop);
    try {
      const r = await runCli(['run', loop]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`workload ${loop}: cannot be read (ELOOP)`);
      expect(r.err).not.toContain('no such file');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a file past the document limit by its size, unread', async () => {
    // 300 MB, sparse: it was read up to the limit before (/dev/zero, never ending, is a device:
    // special-files.test.ts).
    const dir = mkdtempSync(join(tmpdir(), 'schedlab-big-'));
    try {
      const big = join(dir, 'big.json');
      writeFileSync(big, '');
      truncateSync(big, 300_000_000);
      const r = await runCli(['run', big]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`workload ${big}: is 300000000 bytes, over the limit of 268435456`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a document of more objects and arrays than any workload holds before parsing it', async () => {
    // 8,000,001 empty lists (24 MB): JSON.parse built each (20 M took 26 s and 1.9 GB).
    const dir = mkdtempSync(join(tmpdir(), 'schedlab-containers-'));
    try {
      const file = join(dir, 'many.json');
      writeFileSync(file, `{"nodes":[${'[],'.repeat(MAX_DOCUMENT_CONTAINERS)}[]]}`);
      const r = await runCli(['run', file]);
      expect(r).toMatchObject({ code: 2, out: '' });
      expect(r.err).toContain(
        `holds more than ${MAX_DOCUMENT_CONTAINERS} objects and arrays, the most a document may`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Counted outside strings only, escapes included; below the limit, nothing is counted.
    const text = (s: string) => new TextEncoder().encode(s);
    expect(containersPast(text('{"a":"{{[[\\"{[","b":[{}]}'), 3)).toBe(false);
    expect(containersPast(text('{"a":"x","b":[{},{}]}'), 3)).toBe(true);
  }, 60_000);

  it('runs a bare graph document as a workload named after its file; a cycle is still refused', async () => {
    const dag = tmpFile('dag.json', {
      nodes: [
        { id: 'a', cost: 1 },
        { id: 'b', cost: 2 },
      ],
      edges: [{ from: 'a', to: 'b' }],
    });
    const r = await runCli(['run', dag, '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({
      workload: 'dag',
      dag: { workMs: 3, criticalPathMs: 3 },
    });
    const cyclic = tmpFile('cyclic.json', {
      nodes: [{ id: 'a' }, { id: 'b' }],
      edges: [
        { from: 'a', to: 'b' },
        { from: 'b', to: 'a' },
      ],
    });
    const bad = await runCli(['run', cyclic]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('graph.edges form a cycle');
  });

  it('names an integer knob’s own maximum at 1e308', async () => {
    const r = await runCli(['run', 'interactive-vs-scan', '--set', 'workers=1e308']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('workers must be <= 256');
    const w = await runCli(['run', 'interactive-vs-scan', '--set', 'classes[0].tasks=1e308']);
    expect(w.err).toContain('classes[0].tasks must be <= 10000');
  });
});
