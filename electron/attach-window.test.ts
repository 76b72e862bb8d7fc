// The attach window's two checks: which URL it takes from its arguments, and where it may go.
import { describe, expect, it, vi } from 'vitest';
import { ATTACH_ENV, attachUrlOf, isConsolePage } from './attach-window.ts';

vi.mock('electron', () => ({ BrowserWindow: class {} }));

describe('attach window', () => {
  it('takes only a loopback http console URL, from its environment (not its arguments)', () => {
    const url = 'http://127.0.0.1:4321/?token=abcdefghijklmnop';
    const env = (text?: string) => ({ [ATTACH_ENV]: text });
    expect(attachUrlOf(env(url))?.href).toBe(url);
    expect(attachUrlOf({})).toBeNull();
    expect(attachUrlOf(env('http://example.com/?token=x'))).toBeNull();
    expect(attachUrlOf(env('file:///etc/passwd'))).toBeNull();
    expect(attachUrlOf(env('not a url'))).toBeNull();
    // `schedlab attach` takes [::1] (an ssh -L port on it): the window did not, and the app
    // exited with nothing said (its output is not shown).
    expect(attachUrlOf(env('http://[::1]:4321/?token=x'))?.hostname).toBe('[::1]');
    expect(attachUrlOf(env('http://localhost:4321/?token=x'))).not.toBeNull();
  });

  it('stays on the console’s origin', () => {
    const origin = 'http://127.0.0.1:4321';
    expect(isConsolePage('http://127.0.0.1:4321/?token=x', origin)).toBe(true);
    expect(isConsolePage('http://127.0.0.1:4322/', origin)).toBe(false);
    expect(isConsolePage('http://user@127.0.0.1:4321/', origin)).toBe(false);
    expect(isConsolePage('https://example.com/', origin)).toBe(false);
    expect(isConsolePage('nonsense', origin)).toBe(false);
  });
});
