/**
 * The Compare view's pure parts: the small config forms turned into a `compare` command (checked
 * against the protocol's schema before it is sent, so a bad value names its field), and a
 * comparison's reports turned into table rows and chart rows.
 */
import { POLICY_NAMES, type PolicyName } from '../../../shared/config.ts';
import { GRAPH_POLICIES, type GraphPolicy } from '../../../shared/graph.ts';
import {
  commandSchemas,
  levelRowName,
  type CommandOf,
  type CompareReportRow,
} from '../../../shared/protocol.ts';
import { schemaError } from '../../../shared/schema-error.ts';

/** One column's form: text as typed; an empty field leaves the workload's own value. */
export interface ConfigForm {
  label: string;
  policy: PolicyName | GraphPolicy;
  workers: string;
  quantumMs: string;
  levelTimeMultiplier: string;
}

export const NUMBER_FIELDS = ['workers', 'quantumMs', 'levelTimeMultiplier'] as const;

export const DEFAULT_FORMS: readonly ConfigForm[] = [
  { label: '', policy: 'mlfq', workers: '', quantumMs: '', levelTimeMultiplier: '' },
  { label: '', policy: 'fifo', workers: '', quantumMs: '', levelTimeMultiplier: '' },
];

/** What a column's policy may be: split-queue policies, or a graph's ready-queue policies. */
export function policyChoices(graph: boolean): readonly (PolicyName | GraphPolicy)[] {
  return graph ? GRAPH_POLICIES : POLICY_NAMES;
}

/** A graph's classic pair to start from: arrival order against the critical path. */
const GRAPH_DEFAULTS: readonly ConfigForm['policy'][] = ['fifo', 'critical-path'];

/**
 * The forms for a workload of the other kind: when any column's policy does not apply there, the
 * columns take that kind's policies in order, starting from its classic pair (other fields kept),
 * so switching between a graph and a split-queue workload never leaves a column the engine refuses.
 */
export function fitForms(forms: readonly ConfigForm[], graph: boolean): ConfigForm[] {
  const choices = policyChoices(graph);
  if (forms.every((f) => choices.includes(f.policy))) return [...forms];
  const pair: readonly ConfigForm['policy'][] = graph
    ? GRAPH_DEFAULTS
    : DEFAULT_FORMS.map((f) => f.policy);
  const order = [...pair, ...choices.filter((p) => !pair.includes(p))];
  return forms.map((f, i) => ({ ...f, policy: order[i % order.length]! }));
}

/** A policy no column has yet, in the kind's order (for a new column). */
export function nextPolicy(forms: readonly ConfigForm[], graph: boolean): ConfigForm['policy'] {
  const choices = policyChoices(graph);
  return choices.find((p) => !forms.some((f) => f.policy === p)) ?? choices[0]!;
}

export { isGraphWorkload } from '../../../shared/workload.ts';

export type CompareSource = { kind: 'preset'; preset: string } | { kind: 'workload'; doc: unknown };

export type BuiltCommand =
  { ok: true; command: CommandOf<'compare'> } | { ok: false; field: string; message: string };

export function buildCompare(
  source: CompareSource,
  forms: readonly ConfigForm[],
  durationMs: number,
  seed: string,
): BuiltCommand {
  const configs = forms.map((f) => {
    const c: Record<string, unknown> = { policy: f.policy };
    if (f.label.trim() !== '') c['label'] = f.label.trim();
    // A typed value that is not a number is sent as text, so the schema names the field.
    for (const k of NUMBER_FIELDS) if (f[k].trim() !== '') c[k] = numberOrText(f[k]);
    return c;
  });
  const raw: Record<string, unknown> = { type: 'compare', configs, durationMs };
  if (source.kind === 'preset') raw['preset'] = source.preset;
  else raw['workload'] = source.doc;
  if (seed.trim() !== '') raw['seed'] = numberOrText(seed);
  const parsed = commandSchemas.compare.safeParse(raw);
  if (parsed.success) return { ok: true, command: parsed.data };
  const error = schemaError(parsed.error, 'INVALID_CONFIG', [], 'configs');
  return { ok: false, field: error.field!, message: error.message };
}

function numberOrText(s: string): number | string {
  const n = Number(s.trim());
  return Number.isFinite(n) ? n : s;
}

export interface TableRow {
  key: string;
  name: string;
  cells: string[];
  /** The figure behind each cell (NaN where a run has none), for tests and highlighting. */
  values: number[];
  /** Which way is better, when one is: the best cell gets marked. */
  better?: 'low' | 'high';
}

const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

export function classNames(reports: readonly CompareReportRow[]): string[] {
  return [...new Set(reports.flatMap((r) => Object.keys(r.classes)))];
}

export function tableRows(reports: readonly CompareReportRow[]): TableRow[] {
  const rows: TableRow[] = [];
  const row = (
    key: string,
    name: string,
    get: (r: CompareReportRow) => number | undefined,
    fmt: (x: number) => string,
    better?: 'low' | 'high',
  ) => {
    const values = reports.map((r) => get(r) ?? NaN);
    const cells = values.map((v) => (Number.isNaN(v) ? '–' : fmt(v)));
    rows.push(
      better === undefined ? { key, name, cells, values } : { key, name, cells, values, better },
    );
  };
  row('makespan', 'makespan', (r) => r.makespanMs, ms);
  row('utilization', 'utilization', (r) => r.utilization, pct, 'high');
  row(
    'jain',
    'Jain fairness',
    (r) => r.jain,
    (x) => x.toFixed(3),
    'high',
  );
  for (const cls of classNames(reports)) {
    const c = (r: CompareReportRow) => r.classes[cls];
    // No job of the class finished: its latency is unknown, not zero.
    const lat = (r: CompareReportRow) => (c(r)?.succeeded ? c(r)?.latencyMs : undefined);
    row(`${cls}-done`, `${cls} done / jobs`, (r) => c(r)?.succeeded, String, 'high');
    const done = rows[rows.length - 1]!;
    done.cells = reports.map((r) => {
      const x = c(r);
      return x === undefined ? '–' : `${x.succeeded} / ${x.jobs}`;
    });
    row(`${cls}-p50`, `${cls} latency p50`, (r) => lat(r)?.p50, ms, 'low');
    row(`${cls}-p95`, `${cls} latency p95`, (r) => lat(r)?.p95, ms, 'low');
    row(`${cls}-p99`, `${cls} latency p99`, (r) => lat(r)?.p99, ms, 'low');
    row(`${cls}-wait-p95`, `${cls} wait p95`, (r) => c(r)?.waitMs?.p95, ms, 'low');
  }
  const levels = Math.max(0, ...reports.map((r) => r.levelShares.length));
  for (let l = 0; l < levels; l++) {
    // Named by what each run's row is (an MLFQ level, a PRIO band, fifo's one queue): a row of
    // `L0` put mlfq's level 0 beside fifo's whole queue as if they were one thing.
    const name = levelRowName(
      reports.map((r) => r.levelShares[l]?.label),
      l,
    );
    row(`L${l}-share`, `${name} charged share`, (r) => r.levelShares[l]?.share, pct);
  }
  return rows;
}

/** Index of the best cell of a row, or −1 when there is no winner (ties, or no direction). */
export function bestCell(row: TableRow): number {
  if (row.better === undefined) return -1;
  const finite = row.values.filter((v) => !Number.isNaN(v));
  if (finite.length < 2) return -1;
  const best = row.better === 'low' ? Math.min(...finite) : Math.max(...finite);
  const at = row.values.filter((v) => v === best).length === 1 ? row.values.indexOf(best) : -1;
  return at;
}

/**
 * p95 latency per class (one chart row per class), one key `c0`…`c3` per config; null (no bar)
 * where no job of the class finished in that run.
 */
export function p95ChartRows(
  reports: readonly CompareReportRow[],
): Record<string, number | string | null>[] {
  return classNames(reports).map((cls) => {
    const out: Record<string, number | string | null> = { cls };
    reports.forEach((r, i) => {
      const c = r.classes[cls];
      out[`c${i}`] = c !== undefined && c.succeeded > 0 ? c.latencyMs.p95 : null;
    });
    return out;
  });
}
