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
    hookTimeout: 120_000,
  },
})
