// The Electron main-process modules, run against a recording stand-in for the `electron` module
// (the real binary cannot be downloaded on every machine): window security, the IPC sender
// check, and the frame port handed to each page load with a snapshot first.
import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COMMAND_CHANNEL,
  FRAME_ACK,
  MAX_UNACKED_FRAMES,
  PORT_MESSAGE,
} from '../shared/transport.ts';
import type { AnyHostSession } from '../engine/host/server/host-session.ts';

const fake = vi.hoisted(() => {
  const state = {
    windows: [] as { options: Record<string, unknown>; contents: unknown; loaded: string[] }[],
    opened: [] as string[],
    handlers: new Map<string, (...args: unknown[]) => unknown>(),
    ports: [] as { posted: unknown[]; closed: boolean; started: boolean }[],
    // Every dialog shown, and the button index the "user" clicks next (0: the first button).
    dialogs: [] as { parent: unknown; options: { message: string; detail?: string } }[],
    answer: 1,
  };
  return state;
});

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  class FakePort extends EventEmitter {
    posted: unknown[] = [];
    closed = false;
    started = false;
    postMessage(m: unknown) {
      this.posted.push(m);
    }
    start() {
      this.started = true;
    }
    close() {
      this.closed = true;
    }
  }
  class MessageChannelMain {
    port1 = new FakePort();
    port2 = new FakePort();
    constructor() {
      fake.ports.push(this.port1);
    }
  }
  class BrowserWindow extends EventEmitter {
    webContents: EventEmitter;
    constructor(options: Record<string, unknown>) {
      super();
      const contents = Object.assign(new EventEmitter(), {
        openHandler: null as unknown,
        permission: null as unknown,
        permissionCheck: null as unknown,
        setWindowOpenHandler(fn: unknown) {
          contents.openHandler = fn;
        },
        session: {
          setPermissionRequestHandler(fn: unknown) {
            contents.permission = fn;
          },
          setPermissionCheckHandler(fn: unknown) {
            contents.permissionCheck = fn;
          },
        },
      });
      this.webContents = contents;
      const record = { options, contents, loaded: [] as string[] };
      fake.windows.push(record);
      this.loadURL = (url: string) => (record.loaded.push(url), Promise.resolve());
    }
    loadURL: (url: string) => Promise<void>;
    show() {}
  }
  return {
    BrowserWindow,
    MessageChannelMain,
    shell: { openExternal: (url: string) => (fake.opened.push(url), Promise.resolve()) },
    dialog: {
      showMessageBox: (parent: unknown, options: { message: string; detail?: string }) => {
        fake.dialogs.push({ parent, options });
        return Promise.resolve({ response: fake.answer, checkboxChecked: false });
      },
    },
    ipcMain: {
      handle: (channel: string, fn: (...args: unknown[]) => unknown) =>
        fake.handlers.set(channel, fn),
      removeHandler: (channel: string) => fake.handlers.delete(channel),
    },
  };
});

const { createAppWindow } = await import('./window.ts');
const { serveCommands } = await import('./command-ipc.ts');
const { streamFramesTo } = await import('./frame-port.ts');

class HandSession implements AnyHostSession {
  private listeners = new Set<(frame: unknown) => void>();
  commands: unknown[] = [];
  handleCommand(command: unknown) {
    this.commands.push(command);
    return Promise.resolve({ ok: true });
  }
  snapshot() {
    return { type: 'snapshot', seq: 0 };
  }
  onFrame(listener: (frame: unknown) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  spanCount(frame: unknown) {
    return (frame as { spans?: number }).spans ?? 0;
  }
  emit(frame: unknown) {
    for (const l of this.listeners) l(frame);
  }
}

beforeEach(() => {
  fake.windows.length = 0;
  fake.opened.length = 0;
  fake.handlers.clear();
  fake.ports.length = 0;
  fake.dialogs.length = 0;
  fake.answer = 1;
});

type Contents = EventEmitter & {
  openHandler: (d: { url: string }) => { action: string };
  permission: (c: unknown, p: string, cb: (ok: boolean) => void) => void;
  permissionCheck: () => boolean;
  postMessage?: (...args: unknown[]) => void;
};

function navigate(contents: EventEmitter, url: string): boolean {
  let prevented = false;
  contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, url);
  return prevented;
}

describe('the app window', () => {
  it('is isolated, sandboxed and has no Node, and loads our own page', () => {
    createAppWindow('/tmp/preload.cjs');
    const [win] = fake.windows;
    expect(win?.options.webPreferences).toMatchObject({
      preload: '/tmp/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webviewTag: false,
    });
    expect(win?.loaded).toEqual(['app://schedlab/index.html']);
  });

  it('blocks navigation away, denies new windows and permissions', () => {
    createAppWindow('/tmp/preload.cjs');
    const contents = fake.windows[0]?.contents as Contents;
    expect(navigate(contents, 'app://schedlab/index.html')).toBe(false);
    expect(navigate(contents, 'https://example.com/')).toBe(true);
    expect(navigate(contents, 'file:///etc/passwd')).toBe(true);
    expect(contents.openHandler({ url: 'https://example.com/x' })).toEqual({ action: 'deny' });
    let granted: boolean | undefined;
    contents.permission(null, 'media', (ok) => (granted = ok));
    expect(granted).toBe(false);
    expect(contents.permissionCheck()).toBe(false);
  });
});

/** Lets the dialog's promise and the open that follows it settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('links leaving the app', () => {
  it('open in the browser only after the user confirms a dialog naming the address', async () => {
    createAppWindow('/tmp/preload.cjs');
    const contents = fake.windows[0]?.contents as Contents;
    fake.answer = 1; // Cancel
    navigate(contents, 'https://example.com/a?b=c');
    await settle();
    expect(fake.dialogs).toHaveLength(1);
    expect(fake.dialogs[0]?.options.detail).toBe('https://example.com/a?b=c');
    expect(fake.dialogs[0]?.parent).toBeDefined();
    expect(fake.opened).toEqual([]);

    fake.answer = 0; // Open in browser
    contents.openHandler({ url: 'http://example.org/' });
    await settle();
    expect(fake.dialogs.map((d) => d.options.detail)).toEqual([
      'https://example.com/a?b=c',
      'http://example.org/',
    ]);
    expect(fake.opened).toEqual(['http://example.org/']);
  });

  it('never offers a scheme other than http(s), nor an address hiding its host', async () => {
    createAppWindow('/tmp/preload.cjs');
    const contents = fake.windows[0]?.contents as Contents;
    fake.answer = 0; // the user would click yes to anything
    for (const url of [
      'file:///etc/passwd',
      'smb://attacker.example/share',
      'javascript:alert(1)',
      'ms-msdt:/id PCWDiagnostic',
      'https://app.schedlab.dev@evil.example/',
      `https://example.com/${'x'.repeat(3000)}`,
    ]) {
      navigate(contents, url);
      contents.openHandler({ url });
    }
    await settle();
    expect(fake.dialogs).toEqual([]);
    expect(fake.opened).toEqual([]);
  });

  it('shows one dialog at a time: asks while one is open are dropped', async () => {
    createAppWindow('/tmp/preload.cjs');
    const contents = fake.windows[0]?.contents as Contents;
    for (let i = 0; i < 50; i++) contents.openHandler({ url: `https://example.com/${i}` });
    await settle();
    expect(fake.dialogs).toHaveLength(1);
  });
});

describe('the command channel', () => {
  it('answers our own page and refuses any other sender', async () => {
    const session = new HandSession();
    serveCommands(session);
    const handler = fake.handlers.get(COMMAND_CHANNEL)!;
    const own = { senderFrame: { url: 'app://schedlab/index.html' } };
    await expect(handler(own, { type: 'pause' })).resolves.toEqual({ ok: true });
    const evil = { senderFrame: { url: 'https://evil.example/' } };
    await expect(handler(evil, { type: 'pause' })).rejects.toThrow(/refused/);
    await expect(handler({ senderFrame: null }, { type: 'pause' })).rejects.toThrow(/refused/);
    expect(session.commands).toEqual([{ type: 'pause' }]);
  });
});

describe('the command channel’s bounds, as a browser-mode client’s', () => {
  const own = { senderFrame: { url: 'app://schedlab/index.html' } };

  it('answers at most 32 commands at once; the next is refused TOO_MANY_COMMANDS', async () => {
    // Before: a page's thousand commands were all at work in the session at once.
    const session = new HandSession();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    session.handleCommand = (command: unknown) => {
      session.commands.push(command);
      return held.then(() => ({ ok: true }));
    };
    serveCommands(session);
    const handler = fake.handlers.get(COMMAND_CHANNEL)!;
    const answers = Array.from({ length: 40 }, () => handler(own, { type: 'snapshot' }));
    const refused = await Promise.all(answers.slice(32));
    expect(
      refused.every((r) => (r as { error?: { code: string } }).error?.code === 'TOO_MANY_COMMANDS'),
    ).toBe(true);
    expect(session.commands).toHaveLength(32);
    release();
    await Promise.all(answers.slice(0, 32));
    // Answered, they free their places.
    await expect(handler(own, { type: 'snapshot' })).resolves.toEqual({ ok: true });
  });

  it('refuses a command over 16 MiB, or not made of JSON values, before the session sees it', async () => {
    const session = new HandSession();
    serveCommands(session);
    const handler = fake.handlers.get(COMMAND_CHANNEL)!;
    const big = { type: 'loadWorkload', workload: { name: 'x'.repeat(17 << 20) } };
    await expect(handler(own, big)).resolves.toMatchObject({
      ok: false,
      error: { code: 'MESSAGE_TOO_LARGE', field: 'message' },
    });
    await expect(handler(own, { type: 'submitJob', job: { n: 1n } })).resolves.toMatchObject({
      ok: false,
      error: { code: 'BAD_MESSAGE' },
    });
    expect(session.commands).toEqual([]);
  });
});

describe('the frame port', () => {
  it('hands each page load a fresh port with a snapshot first, then frames', () => {
    const session = new HandSession();
    const handed: unknown[][] = [];
    const contents = Object.assign(new EventEmitter(), {
      postMessage: (...args: unknown[]) => handed.push(args),
    });
    const stop = streamFramesTo(contents as never, session);
    session.emit({ seq: 0 }); // before any page: nowhere to go, nothing kept
    contents.emit('did-finish-load');
    session.emit({ seq: 1 });
    expect(handed).toHaveLength(1);
    expect(handed[0]?.[0]).toBe(PORT_MESSAGE);
    const first = fake.ports[0]!;
    expect(first.started).toBe(true);
    expect(first.posted).toEqual([
      { type: 'snapshot', snapshot: { type: 'snapshot', seq: 0 } },
      { type: 'frame', frame: { seq: 1 } },
    ]);

    contents.emit('did-finish-load'); // a reload
    session.emit({ seq: 2 });
    expect(first.closed).toBe(true);
    expect(fake.ports[1]?.posted).toEqual([
      { type: 'snapshot', snapshot: { type: 'snapshot', seq: 0 } },
      { type: 'frame', frame: { seq: 2 } },
    ]);
    stop();
    session.emit({ seq: 3 });
    expect(fake.ports[1]?.posted).toHaveLength(2);
    expect(fake.ports[1]?.closed).toBe(true);
  });

  it('sends a page that stops reading one frame more, not every frame since, and says what it skipped', () => {
    const session = new HandSession();
    const contents = Object.assign(new EventEmitter(), { postMessage: () => {} });
    const stop = streamFramesTo(contents as never, session);
    contents.emit('did-finish-load');
    const port = fake.ports[0]! as unknown as EventEmitter & { posted: unknown[] };
    const frames = () => port.posted.filter((m) => (m as { type: string }).type === 'frame');
    // A hung page: 1,000 frames come, it acknowledges none.
    for (let seq = 1; seq <= 1000; seq++) session.emit({ seq, spans: 3 });
    expect(frames()).toHaveLength(MAX_UNACKED_FRAMES);
    // It takes one: the newest frame follows, with the count of those it never got.
    port.emit('message', { data: FRAME_ACK });
    const skippedFrames = 1000 - MAX_UNACKED_FRAMES - 1;
    expect(frames().at(-1)).toEqual({
      type: 'frame',
      skipped: { frames: skippedFrames, spans: skippedFrames * 3 },
      frame: { seq: 1000, spans: 3 },
    });
    // Caught up: frames flow again, one per acknowledgement, the skips still counted.
    for (let i = 0; i < MAX_UNACKED_FRAMES; i++) port.emit('message', { data: FRAME_ACK });
    session.emit({ seq: 1001, spans: 3 });
    expect(frames().at(-1)).toMatchObject({
      frame: { seq: 1001 },
      skipped: { frames: skippedFrames },
    });
    // Anything else the page posts is not an acknowledgement.
    for (let seq = 1002; seq < 1010; seq++) session.emit({ seq, spans: 0 });
    const sent = frames().length;
    port.emit('message', { data: 'schedlab:frame-ack?' });
    session.emit({ seq: 1010, spans: 0 });
    expect(frames()).toHaveLength(sent);
    // A reload starts over: a fresh port, nothing owed, no skips.
    contents.emit('did-finish-load');
    session.emit({ seq: 1011, spans: 0 });
    expect(fake.ports[1]?.posted.at(-1)).toEqual({ type: 'frame', frame: { seq: 1011, spans: 0 } });
    stop();
  });
});
