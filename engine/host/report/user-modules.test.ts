import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../shared/limits.ts';
import { checkJobModules, checkModules } from './user-modules.ts';

/** `levels` arrays one inside the next. */
function nested(levels: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

describe('checkModules on a document too deep to copy', () => {
  // A bare graph document is copied before its schema runs: 100,000 levels anywhere in it
  // overflowed the stack, `schedlab: engine failure: Maximum call stack size exceeded`.
  it('refuses it as INVALID_WORKLOAD naming the limit, not an engine failure', async () => {
    const doc = { nodes: [{ id: 'a', kernel: { module: '/abs/ok.mjs' } }], extra: nested(100_000) };
    await expect(checkModules(doc, 'threads', [])).rejects.toMatchObject({
      code: 'INVALID_WORKLOAD',
      field: 'workload',
      message: `workload nests too deep to copy (values may nest at most ${MAX_JSON_DEPTH} deep)`,
    });
  });

  it('refuses such a job as INVALID_ARGUMENT', async () => {
    const job = {
      class: 'c',
      tasks: [
        {
          splits: [
            { kind: 'leaf', work: { kernel: { module: '/abs/ok.mjs' }, input: nested(100_000) } },
          ],
        },
      ],
    };
    await expect(checkJobModules(job, 'threads', [])).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      field: 'job',
    });
  });
});
