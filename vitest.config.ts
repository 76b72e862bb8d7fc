import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,engine,renderer,electron}/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    // The compiled package (dist/lib) is rebuilt when stale, for tests that import 'schedlab'.
    globalSetup: ['test/build-package.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
