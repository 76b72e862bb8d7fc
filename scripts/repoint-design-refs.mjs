#!/usr/bin/env node
// Points every citation of the design documents that used to live beside the repository
// (`DESIGN.md §N`, `../shared/trino-simulator.md`) at the repository's own copy,
// `docs/design.md` (Trino's simulator facts are its §9). Rewrites tracked files in place and
// prints each file it changed with its count; `--check` changes nothing and exits 1 if any
// citation is left. Safe to run again after merges: a rewritten citation no longer matches.
//
//   node scripts/repoint-design-refs.mjs [--check]
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const TEXT = /\.(ts|tsx|js|mjs|cjs|md|json|yml|yaml|html|css|sh)$|^\.ci\/run$/;
/** This script and the test that guards the result name the old citations on purpose. */
const SELF = new Set(['scripts/repoint-design-refs.mjs', 'test/self-contained.test.ts']);

/** Whether a rewrite of `file` (a path from the repository root) cites relative to docs/. */
const inDocs = (file) => file.startsWith('docs/');

function rewrite(text, file) {
  const design = inDocs(file) ? 'design.md' : 'docs/design.md';
  return (
    text
      // Trino's simulator reference, with or without the folder beside the repository.
      .replace(/(?:\.\.\/)*(?:shared\/)?trino-simulator\.md/g, `${design} §9`)
      // The design reference: `DESIGN.md §3.2`, `../shared/DESIGN.md`, a bare `DESIGN.md`.
      .replace(/(?<![\w/.-])(?:(?:\.\.\/)*shared\/)?DESIGN\.md/g, design)
  );
}

const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '' && TEXT.test(f) && !SELF.has(f));
const check = process.argv.includes('--check');
let changed = 0;
for (const file of files) {
  const path = `${root}/${file}`;
  let before;
  try {
    before = readFileSync(path, 'utf8');
  } catch {
    continue; // listed by git but deleted in the work tree
  }
  const after = rewrite(before, file);
  if (after === before) continue;
  changed++;
  const count = before.split('\n').filter((line, i) => line !== after.split('\n')[i]).length;
  console.log(`${check ? 'would change' : 'changed'} ${file} (${count} lines)`);
  if (!check) writeFileSync(path, after);
}
console.log(`${changed} file(s) ${check ? 'cite the old design documents' : 'repointed'}`);
if (check && changed > 0) process.exit(1);
