/** The Live view's panel frame and the chart styling every panel shares. */

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
  children: React.ReactNode;
}) {
  return (
    <section className="panel" data-testid={props.testId} data-unit={props.unit}>
      <header>
        <h3>{props.title}</h3>
        {props.hint !== undefined && <span className="hint">{props.hint}</span>}
      </header>
      <div className="panel-body">{props.children}</div>
    </section>
  );
}

export function Empty() {
  return <div className="chart-empty">waiting for frames…</div>;
}
