import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, it } from 'vitest'

const projectRoot = new URL('..', import.meta.url).pathname

/** A preload whose resolve hook fails the process the moment anything imports Vite. */
const NO_VITE = join(mkdtempSync(join(tmpdir(), 'mailrow-no-vite-')), 'no-vite.mjs')
writeFileSync(
  NO_VITE,
  `import { register } from 'node:module'
register('data:text/javascript,' + encodeURIComponent('export async function resolve(specifier, context, next) { if (specifier === "vite") throw new Error("vite was imported"); return next(specifier, context) }'))
`,
)

/** A project copy with the script, its sources and a build, the build as old or new as asked. */
function project(buildIsCurrent: boolean) {
  const root = mkdtempSync(join(tmpdir(), 'mailrow-start-'))
  for (const dir of ['scripts/vite', 'src/web', 'src/shared', 'dist/web']) mkdirSync(join(root, dir), { recursive: true })
  copyFileSync(join(projectRoot, 'scripts/build-web-if-needed.ts'), join(root, 'scripts/build-web-if-needed.ts'))
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }')
  for (const file of ['src/web/main.tsx', 'src/shared/paths.ts', 'vite.config.ts', 'package-lock.json', 'scripts/vite/plugins.ts']) writeFileSync(join(root, file), '')
  const sourcesAt = new Date(Date.now() - 60_000)
  for (const file of ['src/web/main.tsx', 'src/web', 'src/shared/paths.ts', 'src/shared', 'vite.config.ts', 'package-lock.json', 'scripts/vite/plugins.ts', 'scripts/vite']) {
    utimesSync(join(root, file), sourcesAt, sourcesAt)
  }
  const builtAt = new Date(sourcesAt.getTime() + (buildIsCurrent ? 30_000 : -30_000))
  for (const file of ['dist/web/index.html', 'dist/web/landing.html']) {
    writeFileSync(join(root, file), '<div id="root"></div>')
    utimesSync(join(root, file), builtAt, builtAt)
  }
  return root
}

function start(root: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', '--import', NO_VITE, join(root, 'scripts/build-web-if-needed.ts')], {
    cwd: projectRoot,
    encoding: 'utf8',
  })
}

it('`npm start` does not import Vite when the web build is newer than its sources', () => {
  const result = start(project(true))
  expect(result.stderr).toBe('')
  expect(result.stdout).toContain('Web app is up to date.')
  expect(result.status).toBe(0)
})

it('imports Vite (to build) when a source is newer than the build', () => {
  const result = start(project(false))
  expect(result.stdout).toContain('Building the web app...')
  expect(result.stderr).toContain('vite was imported')
  expect(result.status).not.toBe(0)
})
