import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,engine,renderer,electron}/**/*.test.{ts,tsx}', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
