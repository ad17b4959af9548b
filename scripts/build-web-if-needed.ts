import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * `npm start` builds the SPA only when dist/web is missing or older than its sources. Vite is
 * imported only then: a current build starts the server without loading the bundler.
 */
const root = new URL('..', import.meta.url).pathname
const outputs = ['dist/web/index.html', 'dist/web/landing.html'].map((path) => join(root, path))
const sources = ['src/web', 'src/shared', 'vite.config.ts', 'scripts/vite', 'package-lock.json']

function newestMtime(path: string): number {
  const full = join(root, path)
  if (!existsSync(full)) return 0
  const stat = statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(stat.mtimeMs, ...readdirSync(full).map((name) => newestMtime(join(path, name))))
}

const builtAt = Math.min(...outputs.map((path) => (existsSync(path) ? statSync(path).mtimeMs : 0)))
if (builtAt === 0 || Math.max(...sources.map(newestMtime)) > builtAt) {
  console.log('Building the web app...')
  const { build } = await import('vite')
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' })
} else {
  console.log('Web app is up to date.')
}
