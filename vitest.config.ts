import { defineConfig } from 'vitest/config'
import { PATH_ALIASES } from './path-aliases.ts'

// Unit and API integration tests (next to the code). Browser stories: vitest.e2e.config.ts.
export default defineConfig({
  resolve: { alias: PATH_ALIASES },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'emulator/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
