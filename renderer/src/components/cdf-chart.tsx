/**
 * A CDF chart: one step line per key over a log time axis, share ≤ x in percent — the Live
 * view's distributions and the compare view's latency CDFs draw through this one component.
 * `children` are extra chart elements (the distributions' p50/p95/p99 dots).
 */
import type { ReactNode } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatMs } from '../data/gantt-viewport.ts';
import { axis, tooltipStyle } from './panel.tsx';

/** The log axis cannot show 0: the shortest time a CDF is drawn from (1 µs). */
export const CDF_FLOOR_MS = 0.001;

export interface CdfLine {
  key: string;
  /** The legend's text. */
  name: string;
  color: string;
  /** Points of the CDF: `frac` is the share (0…1) of samples ≤ `ms`. */
  cdf: readonly { ms: number; frac: number }[];
}

export function CdfChart(props: {
  lines: readonly CdfLine[];
  /** What the x axis measures (`latency`, `wait`). */
  quantity: string;
  height: number;
  children?: ReactNode;
}) {
  return (
    <ResponsiveContainer width="100%" height={props.height}>
      <LineChart margin={{ top: 14, right: 12, bottom: 14, left: 4 }}>
        <CartesianGrid stroke="var(--grid)" />
        <XAxis
          dataKey="ms"
          type="number"
          scale="log"
          domain={['auto', 'auto']}
          allowDuplicatedCategory={false}
          tickFormatter={(v) => formatMs(Number(v))}
          label={{
            value: `${props.quantity} (log scale)`,
            position: 'insideBottom',
            offset: -8,
            fontSize: 10,
          }}
          {...axis}
        />
        <YAxis
          dataKey="frac"
          domain={[0, 100]}
          unit="%"
          label={{
            value: 'share ≤ x',
            angle: -90,
            position: 'insideLeft',
            offset: 10,
            fontSize: 10,
          }}
          {...axis}
        />
        <Tooltip
          {...tooltipStyle}
          labelFormatter={(v) => `≤ ${formatMs(Number(v))}`}
          formatter={(v) => `${Number(v).toFixed(1)} %`}
        />
        {/* In the lines' order (Compare's column order), not recharts' default sort by name. */}
        <Legend wrapperStyle={{ fontSize: 11 }} verticalAlign="top" height={18} itemSorter={null} />
        {props.lines.map((l) => (
          <Line
            key={l.key}
            data={l.cdf.map((p) => ({ ms: Math.max(CDF_FLOOR_MS, p.ms), frac: p.frac * 100 }))}
            dataKey="frac"
            name={l.name}
            type="stepAfter"
            stroke={l.color}
            dot={false}
            strokeWidth={1.5}
            isAnimationActive={false}
          />
        ))}
        {props.children}
      </LineChart>
    </ResponsiveContainer>
  );
}
