/** The Live view's panel frame and the chart styling and marks every panel shares. */
import { ReferenceLine } from 'recharts';
import { useApp } from '../context.ts';
import { chartMarks, type ChartMark } from '../data/derive.ts';

export const axis = { stroke: 'var(--text-dim)', fontSize: 11, tickLine: false } as const;
export const tooltipStyle = {
  contentStyle: {
    background: 'var(--surface-raised)',
    border: '1px solid var(--border)',
    fontSize: 12,
  },
  labelStyle: { color: 'var(--text)' },
} as const;

export function Panel(props: {
  title: string;
  hint?: string;
  testId: string;
  /** What the panel counts in (`level`, `priority band`…), for tests and external checks. */
  unit?: string;
  /** Buttons at the header's right end. */
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section className="panel" data-testid={props.testId} data-unit={props.unit}>
      <header>
        <h3>{props.title}</h3>
        {props.hint !== undefined && <span className="hint">{props.hint}</span>}
        {props.actions}
      </header>
      <div className="panel-body">{props.children}</div>
    </section>
  );
}

export function Empty() {
  return <div className="chart-empty">waiting for frames…</div>;
}

/** The engine's events within the rows' time range. */
export function useMarks(rows: readonly { t?: number }[]): ChartMark[] {
  const { telemetry } = useApp();
  return chartMarks(telemetry.markers.toArray(), rows[0]?.t ?? 0, rows.at(-1)?.t ?? 0);
}

/** Knob and policy marks as dashed vertical lines, labelled like the Gantt's. */
export function markLines(marks: readonly ChartMark[]) {
  return marks.map((m, k) => (
    <ReferenceLine
      key={`${m.t}:${k}`}
      x={m.t}
      stroke="var(--accent)"
      strokeDasharray="4 3"
      ifOverflow="discard"
      label={{ value: m.label, position: 'insideTopLeft', fontSize: 10, fill: 'var(--accent)' }}
    />
  ));
}
