// The attach window's two checks: which URL it takes from its arguments, and where it may go.
import { describe, expect, it, vi } from 'vitest';
import { attachUrlOf, isConsolePage } from './attach-window.ts';

vi.mock('electron', () => ({ BrowserWindow: class {} }));

describe('attach window', () => {
  it('takes only a loopback http console URL from --attach=', () => {
    const url = 'http://127.0.0.1:4321/?token=abcdefghijklmnop';
    expect(attachUrlOf(['electron', 'entry.mjs', `--attach=${url}`])?.href).toBe(url);
    expect(attachUrlOf(['electron', 'entry.mjs'])).toBeNull();
    expect(attachUrlOf(['--attach=http://example.com/?token=x'])).toBeNull();
    expect(attachUrlOf(['--attach=file:///etc/passwd'])).toBeNull();
    expect(attachUrlOf(['--attach=not a url'])).toBeNull();
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
