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

/** A chart with nothing to draw: before the first frame, or (`text`) what its window lacks. */
export function Empty({
  text = 'waiting for frames…',
  testId,
}: {
  text?: string;
  testId?: string;
}) {
  return (
    <div className="chart-empty" data-testid={testId}>
      {text}
    </div>
  );
}

/** The engine's events within the rows' time range. */
export function useMarks(rows: readonly { t?: number }[]): ChartMark[] {
  const { telemetry } = useApp();
  return chartMarks(telemetry.markers.toArray(), rows[0]?.t ?? 0, rows.at(-1)?.t ?? 0);
}

/** recharts hands a reference line's label the line's box. */
interface LabelBox {
  viewBox?: { x?: number; y?: number };
}

/**
 * A mark's label: a handle at the top of the line and its short text; hovering either shows the
 * whole change (an SVG title, the browser's own tooltip) and says it in `data-detail`.
 */
function MarkLabel(props: LabelBox & { mark: ChartMark }) {
  const x = props.viewBox?.x ?? 0;
  const y = props.viewBox?.y ?? 0;
  return (
    <g className="chart-mark" data-testid="chart-mark" data-detail={props.mark.detail}>
      <title>{props.mark.detail}</title>
      <path d={`M${x - 5},${y} L${x + 5},${y} L${x},${y + 7} Z`} fill="var(--accent)" />
      <text x={x + 4} y={y + 16} fontSize={10} fill="var(--accent)">
        {props.mark.label}
      </text>
    </g>
  );
}

/** Knob and policy marks as dashed vertical lines, labelled like the Gantt's, hover for detail. */
export function markLines(marks: readonly ChartMark[]) {
  return marks.map((m, k) => (
    <ReferenceLine
      key={`${m.t}:${k}`}
      x={m.t}
      stroke="var(--accent)"
      strokeDasharray="4 3"
      ifOverflow="discard"
      label={<MarkLabel mark={m} />}
    />
  ));
}
