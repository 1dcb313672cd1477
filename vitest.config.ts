import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One temporary XDG_CACHE_HOME / XDG_STATE_HOME for the whole run, removed afterwards:
    // no test writes a records index or a ledger list into the real user's folders.
    globalSetup: ['test/setup/xdg-global.ts'],
    setupFiles: ['test/setup/xdg-setup.ts'],
  },
});
