// Guards docs/design.md §2: the layering is a lint error, and engine/core stays pure (no Node, no clock).
import { ESLint } from 'eslint';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function lintErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => m.message);
}

describe('layering is enforced by lint', () => {
  it('fails a renderer file that imports the engine', async () => {
    const errors = await lintErrors(
      'renderer/src/x.ts',
      "import { MultilevelSplitQueue } from '../../engine/index.ts';\nexport const q = MultilevelSplitQueue;\n",
    );
    expect(errors.join('\n')).toMatch(/never the engine/);
  });

  it('fails a renderer file that imports electron', async () => {
    const errors = await lintErrors(
      'renderer/src/x.ts',
      "import { ipcRenderer } from 'electron';\nexport const r = ipcRenderer;\n",
    );
    expect(errors.join('\n')).toMatch(/never imports electron/);
  });

  it('fails engine/core importing a Node built-in or reading the clock', async () => {
    const errors = await lintErrors(
      'engine/core/x.ts',
      "import { cpus } from 'node:os';\nimport fs from 'fs';\nexport const n = cpus().length + Date.now() + String(fs);\n",
    );
    expect(errors).toHaveLength(3);
  });

  it('fails engine/core importing the runtime above it', async () => {
    const errors = await lintErrors(
      'engine/core/x.ts',
      "import type { Backend } from '../runtime/backend.ts';\nexport type B = Backend;\n",
    );
    expect(errors.join('\n')).toMatch(/below engine\/runtime/);
  });

  it('fails engine/host importing the library above it', async () => {
    const errors = await lintErrors(
      'engine/host/x.ts',
      "import { Scheduler } from '../lib/scheduler.ts';\nexport const s = Scheduler;\n",
    );
    expect(errors.join('\n')).toMatch(/below engine\/lib/);
  });

  it('accepts the allowed direction (runtime importing core and shared)', async () => {
    const errors = await lintErrors(
      'engine/runtime/x.ts',
      "import { makeSplit } from '../core/ready-queue.ts';\nimport { SchedLabError } from '../../shared/errors.ts';\nexport const s = [makeSplit, SchedLabError];\n",
    );
    expect(errors).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('engine/core is pure', () => {
  const files = sourceFiles('engine/core');

  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s imports no Node built-in and reads no clock', (file) => {
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/from ['"](node:|fs|os|path|worker_threads|child_process)/);
    expect(text).not.toMatch(/\b(Date\.now|performance\.now|process\.hrtime|new Date\(\))/);
  });
});
