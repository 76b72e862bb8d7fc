/**
 * A comparison's answer side by side: one column per config in the table, and p95 latency per
 * class as grouped bars (one colour per config). Animation is off: the figures are final.
 */
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { CompareResultWire } from '../../../shared/protocol.ts';
import { bestCell, p95ChartRows, tableRows } from '../data/compare-rows.ts';
import { CATEGORICAL } from '../data/palette.ts';

const axis = { stroke: 'var(--text-dim)', fontSize: 11, tickLine: false } as const;

export function CompareTable({ result }: { result: CompareResultWire }) {
  const rows = tableRows(result.reports);
  return (
    <table className="table" data-testid="compare-table">
      <thead>
        <tr>
          <th />
          {result.reports.map((r, i) => (
            <th key={i} className="num" data-testid={`compare-col-${i}`} data-label={r.label}>
              <span style={{ color: CATEGORICAL[i] }}>■</span> {r.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const best = bestCell(row);
          return (
            <tr key={row.key} data-testid={`compare-row-${row.key}`}>
              <td>{row.name}</td>
              {row.cells.map((cell, i) => (
                <td
                  key={i}
                  className="num"
                  // A run with no figure here (the cell's dash) has no value to state.
                  data-value={Number.isNaN(row.values[i]) ? undefined : row.values[i]}
                  style={i === best ? { color: 'var(--ok)', fontWeight: 600 } : undefined}
                >
                  {cell}
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function CompareChart({ result }: { result: CompareResultWire }) {
  const data = p95ChartRows(result.reports);
  return (
    <div data-testid="compare-chart" data-classes={data.length} style={{ height: 260 }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 4, right: 8, bottom: 0, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis dataKey="cls" {...axis} />
          <YAxis unit=" ms" {...axis} />
          <Tooltip
            contentStyle={{
              background: 'var(--surface-raised)',
              border: '1px solid var(--border)',
              fontSize: 12,
            }}
            formatter={(v) => `${Number(v).toFixed(1)} ms`}
          />
          <Legend wrapperStyle={{ fontSize: 11 }} />
          {result.reports.map((r, i) => (
            <Bar
              key={i}
              dataKey={`c${i}`}
              name={r.label}
              fill={CATEGORICAL[i % CATEGORICAL.length]!}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
