/**
 * A fresh clone can follow every reference it makes: no tracked file points into the `../shared`
 * folder beside the repository (where the design documents once lived), and every
 * Markdown file a tracked file names is in the repository. The design reference is
 * `docs/design.md`; `node scripts/repoint-design-refs.mjs` rewrites the old citations.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|yml|yaml|html|css|sh)$|^\.ci\/run$/;
/** The rewriting script and this test spell out the old citations on purpose. */
const SELF = new Set(['scripts/repoint-design-refs.mjs', 'test/self-contained.test.ts']);

const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '');
const texts = tracked
  .filter((f) => TEXT.test(f) && !SELF.has(f) && f !== 'package-lock.json')
  .flatMap((file) => {
    try {
      return [{ file, lines: readFileSync(join(root, file), 'utf8').split('\n') }];
    } catch {
      return []; // listed by git, deleted in the work tree
    }
  });

/** `file:line: text` for every line of a tracked text file that `bad` finds something wrong in. */
function offenders(bad: (match: string, file: string) => boolean, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const { file, lines } of texts) {
    lines.forEach((line, i) => {
      for (const m of line.matchAll(pattern)) {
        if (bad(m[0], file)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      }
    });
  }
  return found;
}

describe('the repository is self-contained', () => {
  it('cites its own design reference, docs/design.md, never a DESIGN.md beside it', () => {
    expect(offenders(() => true, /(?<![\w/.-])(?:(?:\.\.\/)*shared\/)?DESIGN\.md/g)).toEqual([]);
  });

  it('every ../shared path names a file of the repository, not the folder beside it', () => {
    // Test fixtures write modules elsewhere whose imports are relative to where they are
    // written, so a path also counts as ours when it names a tracked file from the root.
    const outside = (ref: string, file: string) =>
      !tracked.includes(normalize(posix.join(dirname(file), ref))) &&
      !tracked.includes(ref.replace(/^(?:\.\.\/)+/, ''));
    expect(offenders(outside, /(?:\.\.\/)+shared\/[\w./-]*[\w-]/g)).toEqual([]);
  });

  it('every Markdown file named is a file of the repository', () => {
    const tracks = (ref: string, file: string) => {
      const bare = ref.replace(/^(?:\.{1,2}\/)+/, '');
      return (
        tracked.includes(normalize(posix.join(dirname(file), ref))) ||
        tracked.some((t) => t === bare || t.endsWith(`/${bare}`))
      );
    };
    expect(offenders((ref, file) => !tracks(ref, file), /[\w./-]*[\w-]+\.md\b/g)).toEqual([]);
  });
});
