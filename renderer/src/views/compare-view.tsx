/**
 * Compare: the same seeded workload under 2–4 configs on the simulator. The engine runs the
 * comparison (a `compare` command); until the protocol has one this view says so plainly.
 */
import { useAppState } from '../context.ts';

export function CompareView() {
  const presets = useAppState((s) => s.presets);
  return (
    <div className="compare" data-testid="view-compare">
      <section className="panel">
        <header>
          <h3>Compare configurations</h3>
          <span className="hint">same seeded workload · simulator · 2–4 configs</span>
        </header>
        <div className="panel-body">
          <div className="empty" data-testid="compare-empty">
            <strong>Needs the engine’s compare command.</strong>
            <p>
              Comparisons run on the deterministic simulator inside the engine; this host’s protocol
              does not offer a <code>compare</code> command yet. From a terminal the same comparison
              runs as:
            </p>
            <pre>
              npx schedlab compare {presets[0] ?? 'interactive-vs-scan'} --policy mlfq --policy fifo
            </pre>
          </div>
        </div>
      </section>
    </div>
  );
}
