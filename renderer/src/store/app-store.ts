/**
 * UI state only (xyflow-style store factory): which view, theme, connection, the engine's echoed
 * config and the per-field errors of the Controls view. High-rate data (spans, series) lives in
 * `Telemetry`, never here; frame reducers below change state only when something a user can see
 * changed, so a 10 Hz stream of identical metadata causes no re-render.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { POLICY_NAMES, type EngineConfig, type PolicyName } from '../../../shared/config.ts';
import type {
  BackendName,
  CompareResultWire,
  Frame,
  GraphConfig,
  Snapshot,
} from '../../../shared/protocol.ts';
import type { ConnectionStatus } from '../transport/transport.ts';
import type { TimeRange } from '../data/range-stats.ts';
import { DEFAULT_FORMS, type ConfigForm } from '../data/compare-rows.ts';

export const VIEWS = ['live', 'controls', 'workloads', 'compare', 'export'] as const;
export type ViewName = (typeof VIEWS)[number];
export type Theme = 'dark' | 'light';
export type ColorBy = 'job' | 'class' | 'level';

export interface AppState {
  view: ViewName;
  theme: Theme;
  status: ConnectionStatus;
  follow: boolean;
  colorBy: ColorBy;
  /** Echoed by the engine in every frame; null until the first snapshot. */
  config: EngineConfig | null;
  /** Session-wide graph-run choices, echoed by hosts that run graphs live. */
  graphConfig: GraphConfig | null;
  policy: PolicyName | null;
  backend: 'threads' | 'sim' | null;
  /** The backend by name (`cluster` included); from `backend` where the host does not say. */
  backendName: BackendName | null;
  /** The backends the host can switch to (`Snapshot.backends`); empty: it cannot switch. */
  backends: BackendName[];
  /** A backend switch waiting for the old jobs to drain. */
  backendSwitch: { to: BackendName; live: number } | null;
  /** The sim's pacing (virtual time per real time, or `max`); null on threads or when not reported. */
  speed: number | 'max' | null;
  paused: boolean;
  policies: PolicyName[];
  /** The host's presets (snapshot `presets`), none until it sends them; those that are graphs. */
  presets: string[];
  graphPresets: string[];
  workerCount: number;
  /** Engine (or client-side schema) errors keyed by config field. */
  fieldErrors: Record<string, string>;
  /**
   * One line the user should see (command failures outside Controls); `command`: the command
   * an error is about, so that command's next success clears it (data/commands.ts).
   */
  notice: { kind: 'error' | 'info'; text: string; command?: string } | null;
  hasSnapshot: boolean;
  /** The host refuses commands that act (`Snapshot.readOnly`: a service's read-only console). */
  readOnly: boolean;
  /** The share panel's window (ms): one of `SHARE_WINDOWS`. */
  shareWindowMs: number;
  /** The graph run (its `jobId`) that was the latest when the user switched preset. */
  dismissedGraphJob: number | null;
  /** The job the user picked (Gantt span, table row, warning): highlighted and detailed. */
  selectedJob: number | null;
  /** The job table's search (docs/jobs.md; empty: the frame's rows), set there or by a tenant's row. */
  jobQuery: string;
  /**
   * The time range (engine ms) brushed on the Gantt or a chart: every chart, table and the share
   * panel show it instead of the live window; null while following live.
   */
  range: TimeRange | null;
  /** Whether the knobs side panel beside the Live view is open. */
  knobsOpen: boolean;
  /** `Frame.tenantWeightsVersion`: null from a host that does not report tenant weights. */
  tenantWeightsVersion: number | null;
  compare: CompareState;
}

/**
 * The Compare view's form, its run and the run's answer: kept here, not in the view, so leaving
 * the tab while a comparison runs loses neither the form nor the result (data/compare-run.ts).
 */
export interface CompareState {
  /** A preset's name, `COMPARE_FILE` for a workload file, null: the view's default preset. */
  preset: string | null;
  doc: { name: string; doc: unknown } | null;
  durationS: number;
  seed: string;
  forms: ConfigForm[];
  running: boolean;
  /** The last run was cancelled by the user (its result, if any, is the run before). */
  cancelled: boolean;
  error: string | null;
  result: CompareResultWire | null;
}

/** The Compare view's workload choice that means "the file below", not a preset. */
export const COMPARE_FILE = '__file__';

export interface AppActions {
  setView(view: ViewName): void;
  toggleTheme(): void;
  setStatus(status: ConnectionStatus): void;
  setFollow(follow: boolean): void;
  setColorBy(colorBy: ColorBy): void;
  setFieldError(field: string, message: string | null): void;
  setNotice(notice: AppState['notice']): void;
  setShareWindow(ms: number): void;
  dismissGraph(jobId: number | null): void;
  selectJob(jobId: number | null): void;
  setJobQuery(query: string): void;
  /** Selects a range (and stops following), or with null goes back to following live. */
  setRange(range: TimeRange | null): void;
  setKnobsOpen(open: boolean): void;
  setCompare(patch: Partial<CompareState>): void;
  applyFrame(frame: Frame): void;
  applySnapshot(snapshot: Snapshot): void;
}

/** The windows the share panel offers: 5 s, 30 s, 5 min (the telemetry keeps 5 min of points). */
export const SHARE_WINDOWS = [
  { ms: 5000, label: '5 s' },
  { ms: 30_000, label: '30 s' },
  { ms: 300_000, label: '5 min' },
] as const;

export type AppStore = StoreApi<AppState & AppActions>;

export function initialState(theme: Theme = 'dark'): AppState {
  return {
    view: 'live',
    theme,
    status: 'connecting',
    follow: true,
    colorBy: 'job',
    config: null,
    graphConfig: null,
    policy: null,
    backend: null,
    backendName: null,
    backends: [],
    backendSwitch: null,
    speed: null,
    paused: false,
    policies: [...POLICY_NAMES],
    presets: [],
    graphPresets: [],
    workerCount: 0,
    fieldErrors: {},
    notice: null,
    hasSnapshot: false,
    readOnly: false,
    shareWindowMs: SHARE_WINDOWS[0].ms,
    dismissedGraphJob: null,
    selectedJob: null,
    jobQuery: '',
    range: null,
    knobsOpen: false,
    tenantWeightsVersion: null,
    compare: {
      preset: null,
      doc: null,
      durationS: 30,
      seed: '',
      forms: [...DEFAULT_FORMS],
      running: false,
      cancelled: false,
      error: null,
      result: null,
    },
  };
}

/** The part of a frame the UI state mirrors; returns only what changed (empty = no update). */
export function frameDelta(state: AppState, frame: Frame): Partial<AppState> {
  const delta: Partial<AppState> = {};
  if (state.policy !== frame.policy) delta.policy = frame.policy;
  if (state.backend !== frame.backend) delta.backend = frame.backend;
  const name = frame.backendName ?? frame.backend;
  if (state.backendName !== name) delta.backendName = name;
  const sw = frame.backendSwitch ?? null;
  if (state.backendSwitch?.to !== sw?.to || state.backendSwitch?.live !== sw?.live) {
    delta.backendSwitch = sw;
  }
  const speed = frame.speed ?? null;
  if (state.speed !== speed) delta.speed = speed;
  if (state.paused !== frame.paused) delta.paused = frame.paused;
  if (state.workerCount !== frame.workers.length) delta.workerCount = frame.workers.length;
  if (state.config === null || !sameConfig(state.config, frame.config)) delta.config = frame.config;
  const weights = frame.tenantWeightsVersion ?? null;
  if (state.tenantWeightsVersion !== weights) delta.tenantWeightsVersion = weights;
  const graph = frame.graphConfig ?? null;
  if (JSON.stringify(state.graphConfig) !== JSON.stringify(graph)) delta.graphConfig = graph;
  return delta;
}

function sameConfig(a: EngineConfig, b: EngineConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function createAppStore(initial: Partial<AppState> = {}): AppStore {
  return createStore<AppState & AppActions>()((set, get) => ({
    ...initialState(),
    ...initial,
    setView: (view) => set({ view }),
    toggleTheme: () => set({ theme: get().theme === 'dark' ? 'light' : 'dark' }),
    setStatus: (status) => {
      if (get().status !== status) set({ status });
    },
    // Following live and looking at a brushed range exclude each other.
    setFollow: (follow) => set(follow ? { follow, range: null } : { follow }),
    setColorBy: (colorBy) => set({ colorBy }),
    setFieldError: (field, message) => {
      const current = get().fieldErrors;
      if (message === null) {
        if (!(field in current)) return;
        const next = { ...current };
        delete next[field];
        set({ fieldErrors: next });
      } else if (current[field] !== message) {
        set({ fieldErrors: { ...current, [field]: message } });
      }
    },
    setNotice: (notice) => set({ notice }),
    setShareWindow: (shareWindowMs) => set({ shareWindowMs }),
    dismissGraph: (dismissedGraphJob) => set({ dismissedGraphJob }),
    selectJob: (selectedJob) => {
      if (get().selectedJob !== selectedJob) set({ selectedJob });
    },
    setJobQuery: (jobQuery) => set({ jobQuery }),
    setRange: (range) => set(range === null ? { range, follow: true } : { range, follow: false }),
    setKnobsOpen: (knobsOpen) => set({ knobsOpen }),
    setCompare: (patch) => set({ compare: { ...get().compare, ...patch } }),
    applyFrame: (frame) => {
      const delta = frameDelta(get(), frame);
      if (Object.keys(delta).length > 0) set(delta);
    },
    applySnapshot: (snapshot) => {
      set({
        ...frameDelta(get(), snapshot.frame),
        policies: snapshot.policies,
        backends: snapshot.backends ?? [],
        presets: (snapshot.presets ?? []).map((p) => p.name),
        graphPresets: (snapshot.presets ?? []).filter((p) => p.graph).map((p) => p.name),
        hasSnapshot: true,
        readOnly: snapshot.readOnly === true,
      });
    },
  }));
}

/** Whether the app may send commands that act: connected, to a host that takes them. */
export function canControl(s: AppState): boolean {
  return s.status === 'open' && !s.readOnly;
}

/**
 * Why every control that acts is off on a read-only host (`Snapshot.readOnly`): the one wording
 * they all give — a knob's help, a button's title, a line on a disabled panel, the notice of a
 * shortcut that does nothing.
 */
export const READ_ONLY_REASON =
  'read-only: the service’s console takes no changes (allowControl is off)';

/** `READ_ONLY_REASON` on a read-only host, else undefined (a title that is then left out). */
export function readOnlyReason(s: AppState): string | undefined {
  return s.readOnly ? READ_ONLY_REASON : undefined;
}
