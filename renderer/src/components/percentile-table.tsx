/**
 * Rows of percentiles per class (or band): the latency and wait tables and the distributions'
 * marks table draw through this one component. An optional swatch shows a key's chart colour.
 */
import type { ReactNode } from 'react';
import { formatMs } from '../data/gantt-viewport.ts';

export interface PercentileRow {
  key: string;
  color?: string;
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max?: number;
}

export function PercentileTable(props: {
  rows: readonly PercentileRow[];
  /** The first column's title: `class` or `band`. */
  keyTitle: string;
  /** Also a `max` column. */
  withMax?: boolean;
  className?: string;
  testId: string;
  /** More `data-*` attributes for tests (`data-total`, `data-source`). */
  data?: Record<`data-${string}`, string | number>;
  empty?: ReactNode;
}) {
  const cols = props.withMax === true ? 6 : 5;
  return (
    <table className={props.className ?? 'table'} data-testid={props.testId} {...props.data}>
      <thead>
        <tr>
          <th>{props.keyTitle}</th>
          <th className="num">n</th>
          <th className="num">p50</th>
          <th className="num">p95</th>
          <th className="num">p99</th>
          {props.withMax === true && <th className="num">max</th>}
        </tr>
      </thead>
      <tbody>
        {props.rows.length === 0 && props.empty !== undefined ? (
          <tr>
            <td colSpan={cols} className="muted">
              {props.empty}
            </td>
          </tr>
        ) : (
          props.rows.map((r) => (
            <tr key={r.key}>
              <td>
                {r.color !== undefined && <i className="swatch" style={{ background: r.color }} />}
                {r.key}
              </td>
              <td className="num">{r.count}</td>
              <td className="num">{formatMs(r.p50)}</td>
              <td className="num">{formatMs(r.p95)}</td>
              <td className="num">{formatMs(r.p99)}</td>
              {props.withMax === true && <td className="num">{formatMs(r.max ?? 0)}</td>}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
