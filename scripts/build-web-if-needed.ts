import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'vite'

/** `npm start` builds the SPA only when dist/web is missing or older than its sources. */
const root = new URL('..', import.meta.url).pathname
const output = join(root, 'dist/web/index.html')
const sources = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json']

function newestMtime(path: string): number {
  const full = join(root, path)
  if (!existsSync(full)) return 0
  const stat = statSync(full)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(stat.mtimeMs, ...readdirSync(full).map((name) => newestMtime(join(path, name))))
}

const builtAt = existsSync(output) ? statSync(output).mtimeMs : 0
if (builtAt === 0 || Math.max(...sources.map(newestMtime)) > builtAt) {
  console.log('Building the web app...')
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' })
} else {
  console.log('Web app is up to date.')
}
