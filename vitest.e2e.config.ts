import { defineConfig } from 'vitest/config'
import { PATH_ALIASES } from './path-aliases.ts'

// Browser stories: the built app in a real server, driven in Debian's Chromium.
export default defineConfig({
  resolve: { alias: PATH_ALIASES },
  test: {
    include: ['tests/e2e/**/*.spec.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    environment: 'node',
    // One server, two cores: files run one after another.
    fileParallelism: false,
    testTimeout: 60_000,
    // A story that fails is run once more before it counts as failed: on this shared two-core
    // machine a navigation after a click twice did not happen in time in a full run (a sign-in in
    // parser-pages, the landing page's Sign In link) and each story passed alone. A story that
    // fails because what it guards broke fails both times.
    retry: 1,
    hookTimeout: 120_000,
  },
})
