/**
 * The text report's sections on Trino's executor beyond the classes and levels: its statistics
 * (leaf splits admitted, blocked and unblocked quantum wall times, tasks per level) and the split
 * concurrency controller's targets per class (when it is on). Figures as defined in
 * docs/metrics.md.
 */
import type { RunReport } from './report.ts';
import { fmtMs, table } from './table.ts';

/** Lines to add, none when nothing applies. */
export function formatExecutorSections(r: RunReport): string[] {
  const out: string[] = [];
  const x = r.executorStats;
  if (x !== undefined) {
    const l = x.leafSplits;
    out.push(
      '',
      `leaf splits admitted: now ${l.now} · max ${l.max} · time-weighted mean ${l.mean}`,
    );
    const row = (name: string, p: typeof x.blockedQuantumWallMs) => [
      name,
      String(p.count),
      fmtMs(p.p50),
      fmtMs(p.p95),
      fmtMs(p.p99),
      fmtMs(p.max),
    ];
    out.push(
      table(
        ['quantum wall', 'quanta', 'p50', 'p95', 'p99', 'max'],
        [row('blocked', x.blockedQuantumWallMs), row('unblocked', x.unblockedQuantumWallMs)],
      ),
    );
    const t = x.tasksPerLevel;
    out.push(
      '',
      table(
        ['tasks at level', ...t.running.map((_, i) => `L${i}`)],
        [
          ['running', ...t.running.map(String)],
          ['completed', ...t.completed.map(String)],
        ],
      ),
    );
  }
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
