/**
 * The text report's sections on Trino's executor beyond the classes and levels: the split
 * concurrency controller's targets per class (when it is on). Figures as defined in
 * docs/metrics.md.
 */
import type { RunReport } from './report.ts';
import { table } from './table.ts';

/** Lines to add, none when nothing applies. */
export function formatExecutorSections(r: RunReport): string[] {
  const out: string[] = [];
  const targets = Object.entries(r.classes).filter(([, c]) => c.targetConcurrency !== undefined);
  if (targets.length > 0) {
    out.push('', "leaf split concurrency (Trino's controller: each task's target at its end)");
    out.push(
      table(
        ['class', 'tasks', 'target min', 'mean', 'max'],
        targets.map(([name, c]) => {
          const t = c.targetConcurrency!;
          return [name, String(t.tasks), String(t.min), String(t.mean), String(t.max)];
        }),
      ),
    );
  }
  return out;
}
