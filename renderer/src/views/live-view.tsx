/** Live: the Gantt over the charts a scheduler operator watches. */
import { ExecutorPanel } from '../components/executor-panel.tsx';
import { useShallow } from 'zustand/react/shallow';
import { useApp, useAppState } from '../context.ts';
import { GanttCanvas } from '../components/gantt-canvas.tsx';
import {
  LevelShareChart,
  QueueDepthChart,
  SelectionsChart,
  UtilizationChart,
} from '../components/charts.tsx';
import { GraphRunPanel } from '../components/graph-run.tsx';
import { Alarms, CountersPanel, LatencyPanel, WaitPanel } from '../components/live-tables.tsx';
import { CATEGORICAL, levelColor } from '../data/palette.ts';
import type { ColorBy } from '../store/app-store.ts';
import { useTelemetryTick } from '../hooks/use-redraw.ts';
import { WorkersPanel } from '../components/workers-panel.tsx';
import { TenantsPanel } from '../components/tenants-panel.tsx';
import { JobsSection } from '../components/jobs-section.tsx';
import { DistributionsPanel } from '../components/distributions.tsx';
import { RangeBar } from '../components/range-bar.tsx';
import { KnobsPanel } from './controls-view.tsx';

const COLOR_BY: ColorBy[] = ['job', 'class', 'level'];

/** What the Gantt's colours mean: levels, the classes seen so far, or (for jobs) how to read it. */
function Legend({ colorBy }: { colorBy: ColorBy }) {
  useTelemetryTick(1000);
  const { telemetry } = useApp();
  // Under priority the "levels" are bands: the legend names them as the engine does.
  const labels = telemetry.latest?.levels.map((l) => l.label) ?? [];
  const entries =
    colorBy === 'level'
      ? labels.map((label, l) => [levelColor(l), label] as const)
      : colorBy === 'class'
        ? telemetry.classNames
            .slice(0, 8)
            .map((n, i) => [CATEGORICAL[i % CATEGORICAL.length]!, n] as const)
        : [];
  return (
    <div className="legend">
      {entries.map(([color, label]) => (
        <span key={label}>
          <i style={{ background: color }} />
          {label}
        </span>
      ))}
      {colorBy === 'job' && (
        <span>
          <i
            style={{ background: `linear-gradient(90deg, ${CATEGORICAL.slice(0, 6).join(',')})` }}
          />
          one colour per job
        </span>
      )}
      <span>
        <i style={{ background: 'var(--mixed)' }} />
        several {colorBy === 'class' ? 'classes' : `${colorBy}s`} in one pixel
      </span>
    </div>
  );
}

function GanttToolbar() {
  const { viewport } = useApp();
  const { follow, colorBy, setFollow, setColorBy } = useAppState(
    useShallow((s) => ({
      follow: s.follow,
      colorBy: s.colorBy,
      setFollow: s.setFollow,
      setColorBy: s.setColorBy,
    })),
  );
  return (
    <div className="toolbar">
      <button
        className={follow ? 'btn toggle on' : 'btn toggle'}
        data-testid="gantt-follow"
        aria-pressed={follow}
        onClick={() => setFollow(!follow)}
        title="f"
      >
        {follow ? '● following live' : '○ follow live'}
      </button>
      <div className="segmented" role="group" aria-label="colour by">
        <span className="segmented-label">colour by</span>
        {COLOR_BY.map((c) => (
          <button
            key={c}
            className={colorBy === c ? 'on' : ''}
            data-testid={`color-by-${c}`}
            onClick={() => setColorBy(c)}
          >
            {c}
          </button>
        ))}
      </div>
      <Legend colorBy={colorBy} />
      <div className="spacer" />
      <span className="hint">wheel zoom · drag pan · hover for details</span>
      <button
        className="btn icon"
        data-testid="zoom-out"
        title="−"
        onClick={() => viewport.zoom(1.5, follow ? 1 : 0.5)}
      >
        −
      </button>
      <button
        className="btn icon"
        data-testid="zoom-in"
        title="+"
        onClick={() => viewport.zoom(1 / 1.5, follow ? 1 : 0.5)}
      >
        +
      </button>
    </div>
  );
}

/** The knobs beside the charts, open or collapsed to a strip with the button that opens it. */
function KnobsSide() {
  const { open, setOpen } = useAppState(
    useShallow((s) => ({ open: s.knobsOpen, setOpen: s.setKnobsOpen })),
  );
  return (
    <aside
      className={open ? 'knobs-side open' : 'knobs-side'}
      data-testid="knobs-panel"
      data-open={open}
    >
      <button
        className="btn small knobs-toggle"
        data-testid="knobs-toggle"
        aria-expanded={open}
        title={open ? 'hide the knobs' : 'show the knobs beside the charts'}
        onClick={() => setOpen(!open)}
      >
        {open ? 'knobs ▸' : '◂ knobs'}
      </button>
      {open && <KnobsPanel />}
    </aside>
  );
}

export function LiveView() {
  const hasData = useAppState((s) => s.hasSnapshot || s.config !== null);
  return (
    <div className="live-layout">
      <div className="live" data-testid="view-live">
        <LiveBody hasData={hasData} />
      </div>
      <KnobsSide />
    </div>
  );
}

function LiveBody({ hasData }: { hasData: boolean }) {
  return (
    <>
      <RangeBar />
      <Alarms />
      <GraphRunPanel />
      <section className="panel gantt-panel" data-testid="gantt">
        <GanttToolbar />
        <GanttCanvas />
        {!hasData && <div className="overlay-empty">Waiting for the engine’s first frame…</div>}
      </section>
      <WorkersPanel />
      <TenantsPanel />
      <JobsSection />
      <div className="chart-grid">
        <QueueDepthChart />
        <LevelShareChart />
        <SelectionsChart />
        <UtilizationChart />
      </div>
      <div className="chart-grid">
        <CountersPanel />
        <LatencyPanel />
        <WaitPanel />
      </div>
      <DistributionsPanel />
      <ExecutorPanel />
    </>
  );
}
