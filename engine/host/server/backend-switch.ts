/**
 * The live app's backend switch (`setBackend`, shared/protocol.ts), which works like a preset
 * switch: `cancel` cancels the old backend's jobs (`cancelAll`) and switches at once; `drain`
 * stops the old workload's arrivals, lets its live jobs finish on the old backend while frames
 * say so (`Frame.backendSwitch`), and switches when none is left. Switching opens a new session on
 * the new backend (live-backends.ts) running the preset that was running, as a launch on that
 * backend would (its knobs, the launch config), then closes the old one. Listeners follow the
 * current session; `onReset` fires on each switch so transports send every client a snapshot.
 *
 * A switch readies the new backend first (live-backends.ts `prepareBackend`: the cluster's Redis
 * connected, a node's workers on offer) and touches the running session only once it is ready;
 * one that cannot start is answered with why, the session left as it was.
 *
 * States: one session `current`; at most one drain `pending`, holding its readied backend (a
 * later `setBackend` replaces it, a workload started meanwhile drops it);
 * at most one switch `opening` (readying a backend or opening a session: another is refused
 * until it is done).
 */
import { SchedLabError } from '../../../shared/errors.ts';
import type {
  BackendName,
  CommandOf,
  CommandResult,
  Frame,
  Snapshot,
} from '../../../shared/protocol.ts';
import { commandId, errorInfo, parseCommand } from '../session/index.ts';
import {
  openLiveSession,
  prepareBackend,
  SWITCH_CONNECT_MS,
  type BackendChoice,
  type OpenedSession,
  type OpenOptions,
  type PreparedBackend,
} from './live-backends.ts';

interface Drain {
  readonly to: BackendName;
  readonly off: () => void;
  /** The new backend, readied before the drain began. */
  readonly ready: PreparedBackend;
}

export class BackendSwitch {
  current: OpenedSession;
  private readonly frameListeners = new Set<(frame: Frame) => void>();
  private readonly resetListeners = new Set<() => void>();
  private unfollow: () => void;
  private pending: Drain | null = null;
  private opening = false;
  private closed = false;
  /** The preset a new backend starts: the last one started (null after a workload document). */
  private preset: string | null;

  constructor(
    first: OpenedSession,
    private readonly offered: readonly BackendName[],
    private readonly open: OpenOptions,
  ) {
    this.current = first;
    this.preset = open.preset;
    this.unfollow = this.follow(first);
  }

  onFrame(listener: (frame: Frame) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  onReset(listener: () => void): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  snapshot(): Snapshot {
    const s = this.current.session.snapshot();
    this.decorate(s.frame);
    return { ...s, backends: [...this.offered] };
  }

  async handleCommand(msg: unknown): Promise<CommandResult> {
    const type = (msg as { type?: unknown } | null)?.type;
    if (type !== 'setBackend') {
      const result = await this.current.session.handleCommand(msg);
      const started = result.ok && (type === 'runPreset' || type === 'loadWorkload');
      if (started) {
        this.preset = type === 'runPreset' ? (msg as { preset: string }).preset : null;
        // New work on the old backend: the drain it was waiting for will not come.
        if (this.pending !== null) this.dropDrain('a workload started');
      }
      return result;
    }
    const id = commandId(msg);
    try {
      const data = await this.setBackend(parseCommand(msg) as CommandOf<'setBackend'>);
      return { ok: true, ...data, ...(id === undefined ? {} : { id }) };
    } catch (e) {
      return { ok: false, error: errorInfo(e), ...(id === undefined ? {} : { id }) };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.dropPending();
    this.unfollow();
    this.current.own?.stop();
    await this.current.session.close();
  }

  private async setBackend(cmd: CommandOf<'setBackend'>): Promise<Record<string, unknown>> {
    if (this.closed) throw new SchedLabError('ENGINE_CLOSED', 'the live session has closed');
    if (!this.offered.includes(cmd.backend)) {
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `backend: ${cmd.backend} is not offered here (offered: ${this.offered.join(', ')}; cluster needs schedlab serve --redis URL)`,
        'backend',
      );
    }
    if (cmd.backend !== 'sim' && (cmd.speed !== undefined || cmd.seed !== undefined)) {
      const field = cmd.speed !== undefined ? 'speed' : 'seed';
      throw new SchedLabError(
        'INVALID_ARGUMENT',
        `${field}: only the sim backend takes one`,
        field,
      );
    }
    if (cmd.backend === 'cluster' && this.current.name === 'cluster') {
      throw new SchedLabError('INVALID_ARGUMENT', 'backend: already on cluster', 'backend');
    }
    if (this.opening) {
      throw new SchedLabError(
        'QUEUE_FULL',
        'backend: a switch is starting its new backend; try again when it has',
        'backend',
      );
    }
    const choice: BackendChoice = {
      backend: cmd.backend,
      ...(cmd.speed === undefined ? {} : { speed: cmd.speed }),
      ...(cmd.seed === undefined ? {} : { seed: cmd.seed }),
    };
    // What the new backend needs (the cluster: Redis answering, a node's workers) is readied
    // before anything of the running session is touched: a switch that cannot happen leaves its
    // jobs, its preset and a drain under way as they were, and its answer says why. Before, the
    // old jobs were cancelled first and the cluster's Redis waited for 30 s after.
    this.opening = true;
    let ready: PreparedBackend;
    try {
      ready = await prepareBackend(
        choice,
        { ...this.open, preset: this.preset },
        SWITCH_CONNECT_MS,
      );
    } finally {
      this.opening = false;
    }
    if (this.closed) {
      await ready.close();
      throw new SchedLabError('ENGINE_CLOSED', 'the live session closed during the switch');
    }
    // A later switch replaces a drain under way.
    this.dropPending();
    const old = this.current.session;
    if (cmd.mode === 'cancel') {
      const r = await old.handleCommand({ type: 'cancelAll' });
      const cancelled = r.ok && typeof r['cancelled'] === 'number' ? r['cancelled'] : 0;
      await this.swap(choice, ready);
      return { backend: cmd.backend, mode: cmd.mode, cancelled };
    }
    old.workloads?.stop?.();
    const live = old.executor.counters.live + (old.graphs.active ? 1 : 0);
    if (live === 0) {
      await this.swap(choice, ready);
      return { backend: cmd.backend, mode: cmd.mode, draining: 0 };
    }
    const off = old.onFrame((frame) => {
      if (this.pending?.off !== off || frame.counters.live > 0 || old.graphs.active) return;
      // Another switch is readying its backend: it replaces this drain, or fails and leaves it.
      if (this.opening) return;
      this.pending = null;
      // Not from inside the session's own frame loop: its listener list is being walked.
      queueMicrotask(() => {
        off();
        this.swap(choice, ready).catch((e: unknown) => {
          const why = errorInfo(e).message;
          old.executor.record('backend', `switch to ${choice.backend} failed: ${why}`);
          this.open.log(`switch to ${choice.backend} failed: ${why}`);
        });
      });
    });
    this.pending = { to: cmd.backend, off, ready };
    old.executor.record('backend', `draining ${live} live jobs, then ${cmd.backend}`);
    return { backend: cmd.backend, mode: cmd.mode, draining: live };
  }

  /** Ends a drain under way, letting go of the backend it readied. */
  private dropPending(): Drain | null {
    const pending = this.pending;
    if (pending === null) return null;
    pending.off();
    this.pending = null;
    void pending.ready.close().catch(() => {});
    return pending;
  }

  private dropDrain(why: string): void {
    const pending = this.dropPending()!;
    this.current.session.executor.record('backend', `switch to ${pending.to} dropped: ${why}`);
  }

  /** Opens the new backend's session on `ready`, moves listeners over, then closes the old one. */
  private async swap(choice: BackendChoice, ready: PreparedBackend): Promise<void> {
    this.opening = true;
    try {
      const next = await openLiveSession(choice, { ...this.open, preset: this.preset }, ready);
      if (this.closed) {
        await next.session.close();
        throw new SchedLabError('ENGINE_CLOSED', 'the live session closed during the switch');
      }
      const old = this.current;
      this.unfollow();
      this.current = next;
      this.unfollow = this.follow(next);
      old.own?.stop();
      for (const fn of this.resetListeners) fn();
      await old.session.close();
    } finally {
      this.opening = false;
    }
  }

  private follow(opened: OpenedSession): () => void {
    return opened.session.onFrame((frame) => {
      this.decorate(frame);
      for (const fn of this.frameListeners) fn(frame);
    });
  }

  private decorate(frame: Frame): void {
    frame.backendName = this.current.name;
    if (this.pending !== null) {
      frame.backendSwitch = { to: this.pending.to, live: frame.counters.live };
    }
    const own = this.current.alarms?.() ?? [];
    if (own.length > 0) {
      // While the backend's own trouble holds (the cluster's Redis away), a split whose end cannot
      // come is not stuck on its worker: the stuck-worker alarm would blame the user's job.
      const kept = (frame.alarms ?? []).filter((a) => a.kind !== 'stuck-worker');
      frame.alarms = [...own, ...kept];
    }
  }
}
