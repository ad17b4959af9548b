import { defineConfig } from 'drizzle-kit'

// Only drizzle-kit reads this file (to generate migrations); the app applies them at start.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './src/server/db/migrations',
  casing: undefined,
})
