import { describe, expect, it } from 'vitest';
import { APP_URL, isOwnPage } from './app-origin.ts';

describe('isOwnPage (IPC sender and navigation check)', () => {
  it('accepts our own page, with any path or query', () => {
    expect(isOwnPage(APP_URL)).toBe(true);
    expect(isOwnPage('app://schedlab/index.html?view=compare#x')).toBe(true);
  });

  it('rejects every other origin, including look-alikes', () => {
    for (const url of [
      'https://schedlab/index.html',
      'file:///work/main/dist/renderer/index.html',
      'app://schedlab.evil.com/index.html',
      'app://evil@schedlab/index.html',
      'app://other/index.html',
      'http://127.0.0.1:5173/',
      'about:blank',
      '',
      undefined,
      null,
    ]) {
      expect(isOwnPage(url), String(url)).toBe(false);
    }
  });
});
